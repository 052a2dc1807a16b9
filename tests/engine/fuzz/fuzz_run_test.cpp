// The fuzz engine end to end in this process's children, against the example webhook's conversion
// answered in process (no socket): a deep fault is found and reported as one problem with a
// shrunk example, a correct converter leaves the budget spent with no problem, a merge keeps the
// inputs that show behaviour first (and joins other shards' corpora), and an unreachable target
// ends with exit code 3.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/fuzz/fuzz_engine.h"
#include "engine/run/target_resolution.h"
#include "tests/engine/run/example_crd.h"
#include "tests/engine/run/in_process_target.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;

class InProcessFuzz : public ::testing::Test {
 protected:
  void SetUp() override {
    char path[] = "/tmp/convcheck-fuzz-run-XXXXXX";
    ASSERT_NE(mkdtemp(path), nullptr);
    dir_ = path;
    crd_ = testing::loadExampleCrd("widgets.example.convcheck.dev.yaml");
    config_.target.url = "inprocess://example";
    config_.run.seed = 1;
    config_.run.maxBatchSize = 8;
    config_.run.shrinkBudget = 50;
    config_.progressSeconds = 3600;
  }
  void TearDown() override { fs::remove_all(dir_); }

  RunReport fuzz(example::FaultSet faults) {
    return runFuzz(crd_, config_, [faults](const ResolvedTarget&) {
      return std::make_unique<testing::ExampleTarget>(faults);
    });
  }

  std::string dir_;
  Crd crd_;
  FuzzConfig config_;
};

TEST_F(InProcessFuzz, FindsStashOverflowAndReportsItAsOneShrunkProblem) {
  config_.maxTotalTime = 120;
  config_.stopOnProblem = true;
  const RunReport report = fuzz({example::Fault::StashOverflow});
  ASSERT_EQ(report.exitCode, 1) << report.fatalError;
  ASSERT_EQ(report.kinds.size(), 1u);
  const KindReport& kind = report.kinds[0];
  ASSERT_EQ(kind.problems.size(), 1u);
  EXPECT_EQ(kind.problems[0].id, "P1");
  EXPECT_NE(kind.problems[0].key.find("spec.tags"), std::string::npos) << kind.problems[0].key;
  const Finding& example = kind.problems[0].example;
  ASSERT_TRUE(example.shrink.has_value());
  EXPECT_EQ(example.caseObjects.size(), 1u);  // shrunk to the one object
  // The object that should have come back holds more than eight tags. For a plain round trip it
  // is the case's v1 object; for an edited one (libFuzzer's schedule may reach that first) it is
  // the edit made at v1, and the case object, of another version, may have no tags at all.
  const nlohmann::json& expected = example.expected;
  ASSERT_TRUE(expected.contains("spec") && expected.at("spec").contains("tags"))
      << example.property << ": " << expected.dump();
  EXPECT_GT(expected.at("spec").at("tags").size(), 8u) << example.property;
}

TEST_F(InProcessFuzz, ACorrectConverterSpendsTheRunsAndFindsNothing) {
  config_.runs = 100;
  config_.run.corpusDir = dir_ + "/corpus";
  const RunReport report = fuzz({});
  EXPECT_EQ(report.exitCode, 0) << report.fatalError;
  ASSERT_EQ(report.kinds.size(), 1u);
  EXPECT_TRUE(report.kinds[0].problems.empty());
  bool counted = false;
  for (const auto& note : report.kinds[0].notes) counted |= note.rfind("fuzz: 100 case(s)", 0) == 0;
  EXPECT_TRUE(counted);
  const auto files = [&] {
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(config_.run.corpusDir + "/fuzz"))
      n += e.is_regular_file();
    return n;
  };
  const std::size_t kept = files();
  EXPECT_GT(kept, 0u);
  // Merging keeps no more inputs, and at least one.
  config_.merge = true;
  EXPECT_EQ(fuzz({}).exitCode, 0);
  EXPECT_LE(files(), kept);
  EXPECT_GT(files(), 0u);
}

// Shards of a campaign fuzzed apart (other machines) are joined into one corpus: their inputs
// that add behaviour are copied in, their regressions too, and the shards are left as they were.
TEST_F(InProcessFuzz, AMergeJoinsTheInputsAndRegressionsOfOtherShards) {
  const auto names = [](const fs::path& dir) {
    std::set<std::string> found;
    if (fs::exists(dir))
      for (const auto& e : fs::directory_iterator(dir)) found.insert(e.path().filename().string());
    return found;
  };
  config_.runs = 40;
  config_.inFlight = 4;
  for (const std::string shard : {"a", "b"}) {
    config_.run.corpusDir = dir_ + "/" + shard;
    config_.run.seed += 1;
    ASSERT_EQ(fuzz({}).exitCode, 0);
  }
  const fs::path stored = fs::path(dir_) / "b/regressions/other.example.com";
  fs::create_directories(stored);
  std::ofstream(stored / "r.json") << "{}";
  const std::set<std::string> a = names(dir_ + "/a/fuzz"), b = names(dir_ + "/b/fuzz");
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());

  config_.merge = true;
  config_.run.corpusDir = dir_ + "/joined";
  config_.mergeFrom = {dir_ + "/a", dir_ + "/b"};
  EXPECT_EQ(fuzz({}).exitCode, 0);
  const std::set<std::string> joined = names(dir_ + "/joined/fuzz");
  EXPECT_FALSE(joined.empty());
  for (const auto& name : joined) EXPECT_TRUE(a.count(name) + b.count(name) > 0) << name;
  EXPECT_TRUE(fs::exists(fs::path(dir_) / "joined/regressions/other.example.com/r.json"));
  EXPECT_EQ(names(dir_ + "/a/fuzz"), a);
  EXPECT_EQ(names(dir_ + "/b/fuzz"), b);

  // A shard that is not there is an input error.
  config_.mergeFrom = {dir_ + "/missing"};
  const RunReport missing = fuzz({});
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_NE(missing.fatalError.find("no such directory"), std::string::npos) << missing.fatalError;
}

TEST_F(InProcessFuzz, AnUnreachableTargetEndsWithExitCodeThree) {
  config_.runs = 50;
  const RunReport report = runFuzz(crd_, config_, [](const ResolvedTarget&) {
    return std::make_unique<testing::FailingTarget>([](const std::string&) { return true; },
                                                    TransportErrorKind::Connect);
  });
  EXPECT_EQ(report.exitCode, 3);
  EXPECT_NE(report.fatalError.find("could not reach the webhook"), std::string::npos)
      << report.fatalError;
}

}  // namespace
}  // namespace convcheck
