// What the fuzzing processes hand to the reporting one: found cases and stats survive the trip
// through files, come back earliest first, and a case's sightings name each (problem, property,
// pair) once.
#include "engine/fuzz/found_case.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/fuzz/fuzz_session.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;

class FoundCaseDir : public ::testing::Test {
 protected:
  void SetUp() override {
    char path[] = "/tmp/convcheck-found-XXXXXX";
    ASSERT_NE(mkdtemp(path), nullptr);
    dir_ = path;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

FoundCase foundAt(double seconds, int job, std::int64_t exec) {
  return FoundCase{R"({"to":"v1","objects":[{"a":1}]})",
                   42u + static_cast<std::uint64_t>(exec),
                   seconds,
                   exec,
                   job,
                   {"lost|spec.a"}};
}

TEST_F(FoundCaseDir, FoundCasesComeBackWholeAndEarliestFirst) {
  writeFoundCase(dir_, foundAt(2.5, 1, 7));
  writeFoundCase(dir_, foundAt(0.5, 0, 30));
  writeFoundCase(dir_, foundAt(2.5, 0, 90));
  std::vector<std::string> notes;
  const auto found = readFoundCases(dir_, notes);
  EXPECT_TRUE(notes.empty());
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].exec, 30);
  EXPECT_EQ(found[1].job, 0);  // same time: job 0 first
  EXPECT_EQ(found[2].job, 1);
  EXPECT_EQ(found[2].caseBytes, R"({"objects":[{"a":1}],"to":"v1"})");
  EXPECT_EQ(found[2].seed, 49u);
  EXPECT_DOUBLE_EQ(found[2].seconds, 2.5);
  EXPECT_EQ(found[2].problems, std::vector<std::string>{"lost|spec.a"});
}

TEST_F(FoundCaseDir, AnUnreadableFileIsANoteNotACrash) {
  writeFoundCase(dir_, foundAt(1, 0, 1));
  std::ofstream(fs::path(dir_) / "job-3-case-9.json") << "{not json";
  std::vector<std::string> notes;
  EXPECT_EQ(readFoundCases(dir_, notes).size(), 1u);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("job-3-case-9.json"), std::string::npos);
}

TEST_F(FoundCaseDir, StatsOfTheProcessesAreSummed) {
  writeFuzzStats(dir_, 0, FuzzStats{100, 10.0, 50, 7});
  writeFuzzStats(dir_, 1, FuzzStats{60, 12.0, 40, 3});
  const FuzzStats total = readFuzzStats(dir_);
  EXPECT_EQ(total.execs, 160);
  EXPECT_DOUBLE_EQ(total.seconds, 12.0);  // side by side: the longest
  EXPECT_EQ(total.features, 50u);         // the most one process saw
  EXPECT_EQ(total.newBehaviour, 10u);
}

// Processes that fuzz the same webhook see many of the same features: the run's count is the
// union of what they saw, not the most one of them saw.
TEST_F(FoundCaseDir, TheFeaturesOfTheProcessesAreTheirUnion) {
  writeFuzzStats(dir_, 0, FuzzStats{100, 10.0, 3, 7});
  writeFuzzStats(dir_, 1, FuzzStats{60, 12.0, 3, 3});
  writeFuzzFeatures(dir_, 0, {1, 2, 3});
  writeFuzzFeatures(dir_, 1, {2, 3, 4});
  EXPECT_EQ(readFuzzStats(dir_).features, 4u);
}

CheckResult failing(const std::string& property, std::vector<std::string> problems) {
  CheckResult r;
  r.property = property;
  r.outcome = Outcome::Fail;
  r.finding = Finding{};
  for (auto& p : problems) {
    Cause cause;
    cause.key = property + "|" + p;
    cause.problem = p;
    r.finding->causes.push_back(cause);
  }
  return r;
}

TEST(ProblemSightings, EachProblemIsSeenOncePerPropertyAndPair) {
  CaseResult result;
  result.forward.push_back(failing("uid-echo", {"rejected|uid"}));
  result.forward.push_back(CheckResult{"order", Outcome::Pass, std::nullopt, ""});
  result.composite.push_back(failing("round-trip", {"lost|spec.a", "lost|spec.a"}));
  result.backwardFrom = "v1";
  result.backwardTo = {"v1alpha1"};
  result.backward.push_back(failing("uid-echo", {"rejected|uid"}));
  const auto seen = problemSightings(result, "v1alpha1", "v1");
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].problem, "rejected|uid");
  EXPECT_EQ(seen[0].site, "uid-echo v1alpha1->v1");
  EXPECT_EQ(seen[1].problem, "lost|spec.a");
  EXPECT_EQ(seen[1].site, "round-trip v1alpha1->v1");
  EXPECT_EQ(seen[2].problem, "rejected|uid");
  EXPECT_EQ(seen[2].site, "uid-echo v1->v1alpha1");
}

}  // namespace
}  // namespace convcheck
