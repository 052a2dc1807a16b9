// Case progress: the first generated case, the cases told to the progress hook and the failing ones
// counted against --max-failures.
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "engine/run/case_progress.h"

namespace convcheck {
namespace {

CaseResult caseWith(Outcome outcome) {
  CaseResult r;
  CheckResult check;
  check.property = "round-trip";
  check.outcome = outcome;
  r.composite.push_back(check);
  return r;
}

TEST(CaseProgress, TellsEveryCaseWithTheCallsSoFarAndWhetherItFailed) {
  RunConfig config;
  std::vector<std::pair<bool, long long>> told;
  config.events = [&](const EngineEvent& event) {
    const auto& done = std::get<CaseDone>(event);
    EXPECT_EQ(done.kind, "Widget");
    told.emplace_back(done.failed, done.requests);
  };
  const std::string kind = "Widget";
  CaseProgress progress(config, kind);
  EXPECT_TRUE(progress.beforeFirstCase());
  progress.caseDone(caseWith(Outcome::Pass), 3);
  EXPECT_FALSE(progress.beforeFirstCase());
  progress.caseDone(caseWith(Outcome::Fail), 7);
  EXPECT_EQ(told, (std::vector<std::pair<bool, long long>>{{false, 3}, {true, 7}}));
  EXPECT_EQ(progress.failingCases(), 1);
}

// Stored objects (--cluster-objects) and corpus cases run first: the progress line counts them,
// while the first generated case still runs alone and --max-failures counts generated cases.
TEST(CaseProgress, StoredCasesAreToldButAreNotTheFirstGeneratedCase) {
  RunConfig config;
  config.maxFailingCases = 1;
  std::vector<std::pair<bool, long long>> told;
  config.events = [&](const EngineEvent& event) {
    const auto& done = std::get<CaseDone>(event);
    told.emplace_back(done.failed, done.requests);
  };
  const std::string kind = "Widget";
  CaseProgress progress(config, kind);
  progress.storedCaseDone(caseWith(Outcome::Fail), 4);
  progress.storedCaseDone(caseWith(Outcome::Pass), 9);
  EXPECT_EQ(told, (std::vector<std::pair<bool, long long>>{{true, 4}, {false, 9}}));
  EXPECT_TRUE(progress.beforeFirstCase());
  EXPECT_FALSE(progress.limitReached());
  EXPECT_EQ(progress.failingCases(), 0);
}

TEST(CaseProgress, TheLimitIsReachedAtMaxFailuresFailingCases) {
  RunConfig config;
  config.maxFailingCases = 2;
  const std::string kind = "Widget";
  CaseProgress progress(config, kind);
  progress.caseDone(caseWith(Outcome::Fail), 1);
  progress.caseDone(caseWith(Outcome::Pass), 2);
  EXPECT_FALSE(progress.limitReached());
  progress.caseDone(caseWith(Outcome::Fail), 3);
  EXPECT_TRUE(progress.limitReached());
  EXPECT_NE(progress.limitNote().find("stopped after 2 failing case(s) (--max-failures)"),
            std::string::npos);
}

TEST(CaseProgress, AFailureOfAPropertyTheRunDoesNotReportIsNoFailingCase) {
  RunConfig config;
  config.properties = {"schema-valid"};
  config.maxFailingCases = 1;
  std::vector<bool> told;
  config.events = [&](const EngineEvent& event) {
    told.push_back(std::get<CaseDone>(event).failed);
  };
  const std::string kind = "Widget";
  CaseProgress progress(config, kind);
  progress.caseDone(caseWith(Outcome::Fail), 1);  // round-trip, not selected
  EXPECT_EQ(told, std::vector<bool>{false});
  EXPECT_EQ(progress.failingCases(), 0);
  EXPECT_FALSE(progress.limitReached());
}

TEST(CaseProgress, NoLimitWithoutMaxFailures) {
  RunConfig config;
  const std::string kind = "Widget";
  CaseProgress progress(config, kind);
  for (int i = 0; i < 50; ++i) progress.caseDone(caseWith(Outcome::Fail), i);
  EXPECT_FALSE(progress.limitReached());
  EXPECT_EQ(progress.failingCases(), 50);
}

}  // namespace
}  // namespace convcheck
