// End to end, `convcheck fuzz` (the real binary, libFuzzer inside) against the real example
// webhook over TLS: a fault is found, shrunk, written as a bundle that replays and stored as a
// regression; a correct webhook ends with exit 0 when the budget runs out; an unreachable one
// with exit 3.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

namespace fs = std::filesystem;

class Scratch {
 public:
  Scratch() : path_(makeTempDir("convcheck-fuzz-it")) {}
  ~Scratch() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct BinaryRun {
  ExitStatus status;
  std::string out, err;
};

BinaryRun runBinary(std::vector<std::string> args) {
  args.insert(args.begin(), convcheckBinary());
  ChildProcess p(args, {{"NO_COLOR=1"}, ""});
  auto status = p.wait(std::chrono::seconds(240));
  return {status ? *status : p.stop(), p.stdoutText(), p.stderrText()};
}

std::size_t filesIn(const fs::path& dir) {
  std::size_t n = 0;
  if (fs::exists(dir))
    for (const auto& e : fs::recursive_directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

TEST(Fuzz, FindsAFaultShrinksItAndWritesABundleThatReplays) {
  ExampleWebhook webhook({.faults = {"drop-field"}});
  Scratch scratch;
  const std::string corpus = (scratch.path() / "corpus").string();
  const std::string reports = (scratch.path() / "reports").string();
  BinaryRun r = runBinary({"fuzz", "--crd", ExampleWebhook::widgetCrdPath(), "--url", webhook.url(),
                           "--ca-file", webhook.pki().caFile(), "--max-total-time", "4s", "--seed",
                           "1", "--corpus", corpus, "--report-dir", reports});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("problem: round-trip"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("spec.replicas"), std::string::npos) << r.out;
  // libFuzzer's progress: executions per second, corpus size, features.
  EXPECT_NE(r.err.find("exec/s:"), std::string::npos);
  EXPECT_NE(r.err.find("ft:"), std::string::npos);
  EXPECT_GT(filesIn(fs::path(corpus) / "fuzz"), 0u);
  EXPECT_GT(filesIn(fs::path(corpus) / "regressions"), 0u);

  const fs::path bundle = fs::path(reports) / "bundles" / "Widget-v1-v1alpha1-round-trip";
  ASSERT_TRUE(fs::exists(bundle / "bundle.json")) << r.out;
  BinaryRun replay = runBinary({"replay", bundle.string()});
  EXPECT_EQ(replay.status.code, 1) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("still fails"), std::string::npos) << replay.out;

  // A later fuzz run starts from the stored regressions: a corpus with only them finds the
  // problem again within a handful of cases.
  const fs::path again = scratch.path() / "again";
  fs::create_directories(again);
  fs::copy(fs::path(corpus) / "regressions", again / "regressions", fs::copy_options::recursive);
  BinaryRun resumed =
      runBinary({"fuzz", "--crd", ExampleWebhook::widgetCrdPath(), "--url", webhook.url(),
                 "--ca-file", webhook.pki().caFile(), "--runs", "3", "--shrink-budget", "0",
                 "--corpus", again.string(), "--report-dir", (scratch.path() / "r2").string()});
  EXPECT_EQ(resumed.status.code, 1) << resumed.out << resumed.err;
  EXPECT_NE(resumed.out.find("problem: round-trip"), std::string::npos) << resumed.out;

  // The stored regression is replayed first by a later `run` with the same corpus.
  BinaryRun run = runBinary({"run", "--crd", ExampleWebhook::widgetCrdPath(), "--url",
                             webhook.url(), "--ca-file", webhook.pki().caFile(), "--tests", "1",
                             "--corpus", corpus, "--properties", "round-trip"});
  EXPECT_EQ(run.status.code, 1) << run.out << run.err;
}

TEST(Fuzz, ACorrectWebhookEndsWithExitZeroWhenTheRunsAreSpent) {
  ExampleWebhook webhook;
  Scratch scratch;
  const std::string corpus = (scratch.path() / "corpus").string();
  BinaryRun r =
      runBinary({"fuzz", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", webhook.url(),
                 "--ca-file", webhook.pki().caFile(), "--runs", "150", "--seed", "2", "--corpus",
                 corpus, "--report-dir", (scratch.path() / "r").string()});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 problem(s) found"), std::string::npos) << r.out;
  const std::size_t kept = filesIn(fs::path(corpus) / "fuzz");
  EXPECT_GT(kept, 0u);
  // A second run resumes from the kept corpus.
  BinaryRun again =
      runBinary({"fuzz", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", webhook.url(),
                 "--ca-file", webhook.pki().caFile(), "--runs", "20", "--corpus", corpus,
                 "--report-dir", (scratch.path() / "r").string()});
  EXPECT_EQ(again.status.code, 0) << again.out << again.err;
  EXPECT_NE(again.err.find("files found in"), std::string::npos) << again.err;
}

TEST(Fuzz, AnUnreachableWebhookExitsThree) {
  ExampleWebhook webhook;
  Scratch scratch;
  BinaryRun r = runBinary({"fuzz", "--crd", ExampleWebhook::cronTabCrdPath(), "--url",
                           "https://127.0.0.1:1/convert", "--ca-file", webhook.pki().caFile(),
                           "--runs", "50", "--report-dir", (scratch.path() / "r").string()});
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("could not reach the webhook"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace convcheck::test
