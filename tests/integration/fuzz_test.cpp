// End to end, `convcheck fuzz` (the real binary, libFuzzer inside) against the real example
// webhook over TLS: a fault is found, grouped as one problem in run's reports (JUnit, JSON),
// shrunk, written as a bundle that replays and stored as a regression that later fuzz and run
// runs find again; the deep stash-overflow fault is found by two processes; a correct webhook
// ends with exit 0 when the budget runs out; --merge minimises the corpus and joins the corpora of
// shards; an unreachable webhook exits 3.
#include <gtest/gtest.h>

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <thread>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

namespace fs = std::filesystem;

std::size_t filesIn(const fs::path& dir) {
  std::size_t n = 0;
  if (fs::exists(dir))
    for (const auto& e : fs::recursive_directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

std::vector<std::string> fuzzArgs(const ExampleWebhook& webhook, const std::string& crd,
                                  std::vector<std::string> more) {
  std::vector<std::string> args = {
      "fuzz", "--crd", crd, "--url", webhook.url(), "--ca-file", webhook.pki().caFile()};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The one problem of the run's results.json, with its bundle replayed: it still fails.
void expectOneProblemThatReplays(const ConvcheckResult& r, const std::string& pathPart) {
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  const auto& problems = r.json.at("kinds").at(0).at("problems");
  ASSERT_EQ(problems.size(), 1u) << problems.dump(2);
  EXPECT_EQ(problems[0].at("id"), "P1");
  EXPECT_NE(problems[0].dump().find(pathPart), std::string::npos) << problems[0].dump(2);
  ASSERT_TRUE(problems[0].contains("bundle")) << problems[0].dump(2);
  const std::string bundle = problems[0].at("bundle");
  ASSERT_TRUE(fs::exists(fs::path(bundle) / "bundle.json")) << bundle;
  ConvcheckResult replay = runConvcheckExactly({"replay", bundle});
  EXPECT_EQ(replay.status.code, 1) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("still fails"), std::string::npos) << replay.out;
}

// uid-not-echoed breaks uid-echo on every version pair: one problem, several sites.
TEST(Fuzz, FindsAFaultGroupsItAsOneProblemAndWritesABundleThatReplays) {
  ExampleWebhook webhook({.faults = {"uid-not-echoed"}});
  ScratchDir scratch("convcheck-fuzz-it");
  const std::string corpus = (scratch.path() / "corpus").string();
  const std::string reports = (scratch.path() / "reports").string();
  ConvcheckResult r = runConvcheck(fuzzArgs(
      webhook, ExampleWebhook::widgetCrdPath(),
      {"--max-total-time", "4s", "--seed", "1", "--corpus", corpus, "--report-dir", reports}));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("1 problem:"), std::string::npos) << r.out;
  expectOneProblemThatReplays(r, "uid");
  EXPECT_GT(r.json.at("kinds").at(0).at("problems").at(0).at("sites").size(), 1u) << r.out;
  EXPECT_NE(r.junit.find("uid-echo"), std::string::npos);
  EXPECT_TRUE(fs::exists(fs::path(reports) / "summary.md"));
  EXPECT_TRUE(fs::exists(fs::path(reports) / "crd.json"));
  // Progress on stderr: convcheck's own (cases/s, features, inputs kept), not libFuzzer's.
  EXPECT_EQ(r.err.find("exec/s:"), std::string::npos) << r.err;
  EXPECT_TRUE(std::regex_search(
      r.err, std::regex(R"(fuzz\[0\]: \d+ cases in \d+ s \([0-9.]+/s\), \d+ features)")))
      << r.err;
  EXPECT_NE(r.out.find("behaviour feature(s)"), std::string::npos) << r.out;
  EXPECT_GT(filesIn(fs::path(corpus) / "fuzz"), 0u);
  EXPECT_GT(filesIn(fs::path(corpus) / "regressions"), 0u);
}

TEST(Fuzz, AStoredRegressionIsFoundAgainByFuzzAndByRun) {
  ExampleWebhook webhook({.faults = {"drop-field"}});
  ScratchDir scratch("convcheck-fuzz-it");
  const std::string corpus = (scratch.path() / "corpus").string();
  ConvcheckResult r = runConvcheck(fuzzArgs(
      webhook, ExampleWebhook::widgetCrdPath(),
      {"--max-total-time", "3s", "--seed", "1", "--corpus", corpus, "--shrink-budget", "20"}));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("spec.replicas"), std::string::npos) << r.out;
  ASSERT_GT(filesIn(fs::path(corpus) / "regressions"), 0u);

  // A later fuzz run starts from the stored regressions: a corpus with only them finds the
  // problem again within a handful of cases.
  const fs::path again = scratch.path() / "again";
  fs::create_directories(again);
  fs::copy(fs::path(corpus) / "regressions", again / "regressions", fs::copy_options::recursive);
  ConvcheckResult resumed =
      runConvcheck(fuzzArgs(webhook, ExampleWebhook::widgetCrdPath(),
                            {"--runs", "3", "--shrink-budget", "0", "--corpus", again.string()}));
  EXPECT_EQ(resumed.status.code, 1) << resumed.out << resumed.err;
  EXPECT_NE(resumed.out.find("spec.replicas"), std::string::npos) << resumed.out;

  // The stored regression is replayed first by a later `run` with the same corpus.
  ConvcheckResult run = runConvcheck({"run", "--crd", ExampleWebhook::widgetCrdPath(), "--url",
                                      webhook.url(), "--ca-file", webhook.pki().caFile(), "--tests",
                                      "1", "--corpus", corpus, "--properties", "round-trip"});
  EXPECT_EQ(run.status.code, 1) << run.out << run.err;
}

// --max-total-time is a budget for the whole campaign: fuzzing leaves shrinking its share once a
// problem is found and shrinking leaves the reports theirs, so the command ends within the budget
// plus a tenth, however many problems wait to be shrunk against a slow webhook.
TEST(Fuzz, MaxTotalTimeIsABudgetForTheWholeCampaignShrinkingAndReportsIncluded) {
  ExampleWebhook webhook(
      {.faults = {"drop-field", "mutate-finalizers", "reverse-objects", "lossy-round-trip"},
       .delayMs = 30});
  ScratchDir scratch("convcheck-fuzz-it");
  const auto started = std::chrono::steady_clock::now();
  ConvcheckResult r =
      runConvcheck(fuzzArgs(webhook, ExampleWebhook::cronTabCrdPath(),
                            {"--max-total-time", "15s", "--seed", "1", "--report-dir",
                             (scratch.path() / "reports").string()}));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_LE(seconds, 16.5) << r.out;
  EXPECT_GE(r.json.at("kinds").at(0).at("problems").size(), 2u) << r.out;
  EXPECT_TRUE(fs::exists(scratch.path() / "reports" / "summary.md"));
  // The progress line says how much of the budget is spent.
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(fuzz\[0\]: .*, \d+ s of 15 s elapsed)")))
      << r.err;
}

// stash-overflow loses tags beyond the eighth; generated objects carry at most five, so only
// lists grown by the mutator reach it. Two processes, stopped at the first problem.
TEST(Fuzz, TwoProcessesFindTheDeepStashOverflowFault) {
  ExampleWebhook webhook({.faults = {"stash-overflow"}});
  ScratchDir scratch("convcheck-fuzz-it");
  ConvcheckResult r =
      runConvcheck(fuzzArgs(webhook, ExampleWebhook::widgetCrdPath(),
                            {"--max-total-time", "180s", "--jobs", "2", "--stop-on-problem",
                             "--seed", "3", "--report-dir", (scratch.path() / "r").string()}),
                   "", std::chrono::seconds(300));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("over 2 process(es)"), std::string::npos) << r.out;
  expectOneProblemThatReplays(r, "spec.tags");
  std::smatch found;
  if (std::regex_search(r.out, found, std::regex(R"(first problem after [0-9.]+ s)")))
    std::cout << "stash-overflow: " << found.str() << "\n";
}

TEST(Fuzz, ACorrectWebhookEndsWithExitZeroWhenTheRunsAreSpent) {
  ExampleWebhook webhook;
  ScratchDir scratch("convcheck-fuzz-it");
  const std::string corpus = (scratch.path() / "corpus").string();
  // Flights of two cases (here and below): many small inputs, for the merge to choose from.
  ConvcheckResult r =
      runConvcheck(fuzzArgs(webhook, ExampleWebhook::cronTabCrdPath(),
                            {"--runs", "150", "--in-flight", "2", "--seed", "2", "--corpus", corpus,
                             "--report-dir", (scratch.path() / "r").string()}));
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_TRUE(r.json.at("kinds").at(0).at("problems").empty());
  EXPECT_NE(r.out.find("fuzz: 150 case(s)"), std::string::npos) << r.out;
  const std::size_t kept = filesIn(fs::path(corpus) / "fuzz");
  EXPECT_GT(kept, 0u);

  // Two processes resume from the kept corpus, each running its --runs.
  ConvcheckResult again = runConvcheck(
      fuzzArgs(webhook, ExampleWebhook::cronTabCrdPath(),
               {"--runs", "20", "--in-flight", "2", "--jobs", "2", "--corpus", corpus}));
  EXPECT_EQ(again.status.code, 0) << again.out << again.err;
  EXPECT_NE(again.err.find("fuzz: starting from " + std::to_string(kept) + " input(s) in"),
            std::string::npos)
      << again.err;
  // libFuzzer's own lines are not the console's: no sanitizer warnings, no INFO, #N NEW or stat::
  // lines.
  for (const char* line : {"WARNING: Failed to find function", "INFO:", " NEW ", "stat::"})
    EXPECT_EQ(again.err.find(line), std::string::npos) << line << "\n" << again.err;
  EXPECT_NE(again.err.find("fuzz[1]:"), std::string::npos) << again.err;
  EXPECT_NE(again.out.find("over 2 process(es)"), std::string::npos) << again.out;

  // --merge keeps the inputs that show some behaviour first; a second merge keeps no more (it
  // may keep fewer: latency classes are features, and timings vary).
  const std::size_t before = filesIn(fs::path(corpus) / "fuzz");
  ConvcheckResult merged =
      runConvcheck(fuzzArgs(webhook, ExampleWebhook::cronTabCrdPath(),
                            {"--merge", "--in-flight", "2", "--corpus", corpus}));
  EXPECT_EQ(merged.status.code, 0) << merged.out << merged.err;
  const std::size_t after = filesIn(fs::path(corpus) / "fuzz");
  EXPECT_GT(after, 0u);
  EXPECT_LT(after, before);
  EXPECT_NE(merged.err.find("kept " + std::to_string(after) + " of " + std::to_string(before)),
            std::string::npos)
      << merged.err;
  ConvcheckResult remerged =
      runConvcheck(fuzzArgs(webhook, ExampleWebhook::cronTabCrdPath(),
                            {"--merge", "--in-flight", "2", "--corpus", corpus}));
  EXPECT_EQ(remerged.status.code, 0) << remerged.out << remerged.err;
  EXPECT_LE(filesIn(fs::path(corpus) / "fuzz"), after);
  EXPECT_GT(filesIn(fs::path(corpus) / "fuzz"), 0u);
}

// Shards of one campaign fuzz corpora of their own (on other machines, shared through a CI cache
// or a volume); --merge --merge-from joins them into one: the inputs that add behaviour and the
// stored regressions, the shards left as they were.
TEST(Fuzz, MergeJoinsTheCorporaOfShards) {
  ExampleWebhook webhook({.faults = {"drop-field"}});
  ScratchDir scratch("convcheck-fuzz-it");
  const auto names = [](const fs::path& dir) {
    std::set<std::string> found;
    if (fs::exists(dir))
      for (const auto& e : fs::directory_iterator(dir)) found.insert(e.path().filename().string());
    return found;
  };
  std::set<std::string> shardInputs;
  for (const std::string shard : {"a", "b"}) {
    ConvcheckResult r = runConvcheck(
        fuzzArgs(webhook, ExampleWebhook::widgetCrdPath(),
                 {"--runs", "40", "--in-flight", "4", "--seed", shard == "a" ? "1" : "2",
                  "--shrink-budget", "5", "--corpus", (scratch.path() / shard).string()}));
    ASSERT_EQ(r.status.code, 1) << r.out << r.err;
    ASSERT_GT(filesIn(scratch.path() / shard / "regressions"), 0u);
    for (const auto& name : names(scratch.path() / shard / "fuzz")) shardInputs.insert(name);
  }
  const std::size_t aFiles = filesIn(scratch.path() / "a");

  const fs::path joined = scratch.path() / "joined";
  ConvcheckResult merged =
      runConvcheck(fuzzArgs(webhook, ExampleWebhook::widgetCrdPath(),
                            {"--merge", "--in-flight", "4", "--shrink-budget", "5", "--corpus",
                             joined.string(), "--merge-from", (scratch.path() / "a").string(),
                             "--merge-from", (scratch.path() / "b").string()}));
  EXPECT_EQ(merged.status.code, 1) << merged.out << merged.err;  // the fault, met again
  EXPECT_NE(merged.err.find("joined with 2 other corpus director(ies)"), std::string::npos)
      << merged.err;
  std::smatch counts;
  ASSERT_TRUE(std::regex_search(merged.err, counts, std::regex(R"(kept (\d+) of (\d+) input)")))
      << merged.err;
  EXPECT_GE(std::stoul(counts[2]), shardInputs.size());  // theirs, and seeds of the regressions
  EXPECT_EQ(filesIn(joined / "fuzz"), std::stoul(counts[1]));
  EXPECT_GT(filesIn(joined / "fuzz"), 0u);
  EXPECT_GT(filesIn(joined / "regressions"), 0u);
  EXPECT_EQ(filesIn(scratch.path() / "a"), aFiles);

  // --merge-from belongs to a merge.
  ConvcheckResult alone = runConvcheck(
      fuzzArgs(webhook, ExampleWebhook::widgetCrdPath(),
               {"--corpus", joined.string(), "--merge-from", (scratch.path() / "a").string()}));
  EXPECT_EQ(alone.status.code, 2) << alone.out << alone.err;
  EXPECT_NE(alone.err.find("add --merge"), std::string::npos) << alone.err;
}

// SIGTERM (a CI job cancelled) stops the fuzzing processes; what they found is still reported.
TEST(Fuzz, ASignalStopsFuzzingReportsWhatWasFoundAndExits130) {
  ExampleWebhook webhook({.faults = {"uid-not-echoed"}});
  ScratchDir scratch("convcheck-fuzz-it");
  const fs::path reports = scratch.path() / "r";
  std::vector<std::string> args =
      fuzzArgs(webhook, ExampleWebhook::widgetCrdPath(),
               {"--max-total-time", "120s", "--jobs", "2", "--shrink-budget", "5", "--report-dir",
                reports.string()});
  args.insert(args.begin(), convcheckBinary());
  ChildProcess fuzz(args, {{"NO_COLOR=1"}, ""});
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  fuzz.signal(SIGTERM);
  auto status = fuzz.wait(std::chrono::seconds(60));
  ASSERT_TRUE(status) << "convcheck fuzz did not stop";
  EXPECT_EQ(status->code, 130) << fuzz.stderrText();
  std::ifstream jsonFile(reports / "results.json");
  const auto results = nlohmann::json::parse(jsonFile);
  EXPECT_EQ(results["interrupted"], true);
  EXPECT_EQ(results["kinds"][0]["problems"].size(), 1u);
}

TEST(Fuzz, AnUnreachableWebhookExitsThree) {
  ExampleWebhook webhook;
  ScratchDir scratch("convcheck-fuzz-it");
  ConvcheckResult r =
      runConvcheck({"fuzz", "--crd", ExampleWebhook::cronTabCrdPath(), "--url",
                    "https://127.0.0.1:1/convert", "--ca-file", webhook.pki().caFile(), "--runs",
                    "50", "--report-dir", (scratch.path() / "r").string()});
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("could not reach the webhook"), std::string::npos) << r.err;
}

TEST(Fuzz, AnUnknownPropertyIsAUsageError) {
  ConvcheckResult r = runConvcheck({"fuzz", "--crd", ExampleWebhook::cronTabCrdPath(), "--url",
                                    "https://127.0.0.1:1/convert", "--properties", "no-such"});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("no-such"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace convcheck::test
