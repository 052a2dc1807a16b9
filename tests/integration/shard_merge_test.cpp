// A run split into shards (`run --shard I/N`) against the real example webhook over TLS: the
// shards together send the cases of the unsharded run with the same seed, and `convcheck merge` of
// their report directories gives the unsharded run's verdict, counts and problems.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <tuple>

#include <fmt/format.h>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Per kind: every (property, pair) with its counts, and every problem with its severity, cases
// and sites: what the verdict rests on (not timings, not which case shrinking kept).
using Verdict = std::vector<std::string>;
Verdict verdictOf(const json& results) {
  Verdict out;
  out.push_back("exit " + results["exitCode"].dump());
  for (const auto& kind : results["kinds"]) {
    const std::string crd = kind["crd"];
    for (const auto& r : kind["results"])
      out.push_back(fmt::format("{} {} {}->{}: {} passed, {} failed, {} not evaluable, {}", crd,
                                r["property"].get<std::string>(), r["from"].get<std::string>(),
                                r["to"].get<std::string>(), r["passed"].get<int>(),
                                r["failed"].get<int>(), r["notEvaluable"].get<int>(),
                                r["verdict"].get<std::string>()));
    for (const auto& p : kind["problems"])
      out.push_back(fmt::format("{} problem {} ({}): {} cases at {}", crd,
                                p["key"].get<std::string>(), p["severity"].get<std::string>(),
                                p["cases"].get<int>(), p["sites"].dump()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

int totalOf(const json& results, const char* field) {
  int n = 0;
  for (const auto& kind : results["kinds"]) n += kind[field].get<int>();
  return n;
}

TEST(Shards, ThreeShardsOfBothExampleCrdsMergeToTheUnshardedVerdict) {
  ExampleWebhookOptions options;
  options.faults = {"drop-field", "http500-over-8"};
  ExampleWebhook hook(options);
  ScratchDir dir;
  const std::string crds = ExampleWebhook::examplesDir() + "/crds";
  // No shrinking: every request is then a case's, and the requests can be counted.
  auto run = [&](const std::string& reportDir, std::vector<std::string> extra) {
    std::vector<std::string> args = {"run",
                                     "--crd",
                                     crds,
                                     "--url",
                                     hook.url(),
                                     "--ca-file",
                                     hook.pki().caFile(),
                                     "--seed",
                                     "7",
                                     "--tests",
                                     "30",
                                     "--shrink-budget",
                                     "0",
                                     "--report-dir",
                                     (dir.path() / reportDir).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return runConvcheckExactly(args);
  };
  const auto whole = run("whole", {});
  ASSERT_EQ(whole.status.code, 1) << whole.out << whole.err;
  const json wholeJson = readJsonFile(dir.path() / "whole" / "results.json");
  ASSERT_EQ(wholeJson["kinds"].size(), 2u) << whole.out;

  int requests = 0, objects = 0;
  std::vector<std::string> shardDirs;
  for (int i = 1; i <= 3; ++i) {
    const std::string name = "shard" + std::to_string(i);
    const auto shard = run(name, {"--shard", std::to_string(i) + "/3"});
    EXPECT_TRUE(shard.status.code == 0 || shard.status.code == 1) << shard.out << shard.err;
    const json j = readJsonFile(dir.path() / name / "results.json");
    EXPECT_EQ(j["shard"]["index"], i);
    EXPECT_EQ(j["shard"]["count"], 3);
    EXPECT_NE(shard.out.find(fmt::format("shard {}/3", i)), std::string::npos) << shard.out;
    requests += totalOf(j, "requests");
    objects += totalOf(j, "objectsSent");
    shardDirs.push_back((dir.path() / name).string());
  }
  // Together the shards sent what the unsharded run sent.
  EXPECT_EQ(requests, totalOf(wholeJson, "requests"));
  EXPECT_EQ(objects, totalOf(wholeJson, "objectsSent"));

  std::vector<std::string> mergeArgs = {"merge"};
  mergeArgs.insert(mergeArgs.end(), shardDirs.begin(), shardDirs.end());
  mergeArgs.insert(mergeArgs.end(), {"--report-dir", (dir.path() / "merged").string()});
  const auto merged = runConvcheckExactly(mergeArgs);
  EXPECT_EQ(merged.status.code, whole.status.code) << merged.out << merged.err;
  const json mergedJson = readJsonFile(dir.path() / "merged" / "results.json");
  EXPECT_EQ(verdictOf(mergedJson), verdictOf(wholeJson));
  // Its reproduction line is the unsharded run's (with the first shard's --report-dir).
  std::string command = wholeJson["command"];
  command.replace(command.rfind("whole"), 5, "shard1");
  EXPECT_EQ(mergedJson["command"], command);
  // The console names the problems and the merged reports; the bundles are the shards'.
  EXPECT_NE(merged.out.find("JUnit: " + (dir.path() / "merged" / "junit.xml").string()),
            std::string::npos)
      << merged.out;
  for (const auto& kind : mergedJson["kinds"])
    for (const auto& p : kind["problems"])
      if (p.contains("bundle")) {
        const std::string bundle = p["bundle"];
        EXPECT_TRUE(fs::exists(fs::path(bundle) / "bundle.json")) << bundle;
        EXPECT_EQ(bundle.find((dir.path() / "shard").string()), 0u) << bundle;
      }
  // The merged JUnit has the unsharded run's testcases and failures.
  auto count = [](const fs::path& file, const std::string& what) {
    std::ifstream in(file);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  for (const std::string what : {"<testcase ", "<failure "}) {
    EXPECT_GT(count(dir.path() / "whole" / "junit.xml", what), 0) << what;
    EXPECT_EQ(count(dir.path() / "merged" / "junit.xml", what),
              count(dir.path() / "whole" / "junit.xml", what))
        << what;
  }
}

TEST(Shards, MergingAnIncompleteSetOfShardsSaysWhichIsMissingAndExitsTwo) {
  ExampleWebhook hook;
  ScratchDir dir;
  const auto shard =
      runConvcheckExactly({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(),
                           "--ca-file", hook.pki().caFile(), "--seed", "3", "--tests", "5",
                           "--report-dir", (dir.path() / "s1").string(), "--shard", "1/2"});
  ASSERT_EQ(shard.status.code, 0) << shard.out << shard.err;
  const auto merged = runConvcheckExactly(
      {"merge", (dir.path() / "s1").string(), "--report-dir", (dir.path() / "m").string()});
  EXPECT_EQ(merged.status.code, 2) << merged.out << merged.err;
  EXPECT_NE(merged.err.find("shard 2/2 is missing"), std::string::npos) << merged.err;
  EXPECT_TRUE(fs::exists(dir.path() / "m" / "results.json"));  // reports are still written

  const auto unreadable = runConvcheckExactly({"merge", (dir.path() / "nothing").string()});
  EXPECT_EQ(unreadable.status.code, 2);
  EXPECT_NE(unreadable.err.find((dir.path() / "nothing").string()), std::string::npos)
      << unreadable.err;
}

TEST(Shards, AnIndexedJobsCompletionIndexPicksTheShard) {
  ExampleWebhook hook;
  ScratchDir dir;
  ChildProcess run({convcheckBinary(), "run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url",
                    hook.url(), "--ca-file", hook.pki().caFile(), "--seed", "3", "--tests", "5",
                    "--report-dir", (dir.path() / "job").string()},
                   {{"NO_COLOR=1", "JOB_COMPLETION_INDEX=1", "JOB_COMPLETIONS=2"}, ""});
  auto status = run.wait(std::chrono::seconds(120));
  ASSERT_TRUE(status);
  EXPECT_EQ(status->code, 0) << run.stdoutText() << run.stderrText();
  const json j = readJsonFile(dir.path() / "job" / "results.json");
  EXPECT_EQ(j["shard"]["index"], 2);
  EXPECT_EQ(j["shard"]["count"], 2);
  // Its reproduction line names the shard the environment chose.
  EXPECT_NE(j["command"].get<std::string>().find("--shard 2/2"), std::string::npos) << j["command"];
}

TEST(Shards, AShardBeyondTheRunsPairsSaysSoAndPasses) {
  ExampleWebhook hook;
  ScratchDir dir;
  const auto shard =
      runConvcheckExactly({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(),
                           "--ca-file", hook.pki().caFile(), "--seed", "3", "--shard", "40/40",
                           "--report-dir", (dir.path() / "s40").string()});
  EXPECT_EQ(shard.status.code, 0) << shard.out << shard.err;
  EXPECT_NE(shard.out.find("none of them for this shard: nothing to run"), std::string::npos)
      << shard.out;
  const json j = readJsonFile(dir.path() / "s40" / "results.json");
  EXPECT_EQ(j["kinds"].size(), 0u);
  EXPECT_EQ(j["shard"]["pairs"], 0);
}

}  // namespace
}  // namespace convcheck::test
