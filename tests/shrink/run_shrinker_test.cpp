// Which failures of a run are shrunk: the first of each problem, once, whatever the property,
// version pair or cause key it shows up under; most severe first; within a shared budget.
#include <gtest/gtest.h>

#include "shrink/run_shrinker.h"

namespace convcheck {
namespace {

using nlohmann::json;

// A forward result of `property` failing with the given causes, on a one-object case v1 -> v2.
CaseResult failingWith(const std::string& property, const std::vector<Cause>& causes) {
  CaseResult r;
  Exchange ex;
  ex.sent.objects = SharedObjects::own({json{{"apiVersion", "example.dev/v1"}, {"kind", "K"}}});
  r.forwardCall = share(std::move(ex));
  r.callCount = 1;
  Finding f;
  f.property = property;
  f.causes = causes;
  r.forward.push_back({property, Outcome::Fail, f, ""});
  return r;
}

Cause cause(const std::string& key, Severity severity, const std::string& problem = "") {
  return {key, severity, key, "", problem.empty() ? key : problem};
}

TEST(RunShrinker, EveryNewCauseIsChosenOnceInCaseOrder) {
  std::map<std::string, ObjectGenerator> generators;
  std::map<std::string, ValidityChecker> checkers;
  RunShrinker shrinker(generators, checkers, 10);
  RunShrinker::CaseInfo info{"v1", "v2", 7};
  auto first = shrinker.select(failingWith("order", {cause("a", Severity::DataLoss)}), info);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].target.cause, "a");
  EXPECT_TRUE(
      shrinker.select(failingWith("order", {cause("a", Severity::DataLoss)}), info).empty());
  EXPECT_EQ(shrinker.select(failingWith("order", {cause("b", Severity::Outage)}), info).size(), 1u);
}

TEST(RunShrinker, AProblemIsShrunkOnceWhateverPropertyOrPairItShowsUnder) {
  std::map<std::string, ObjectGenerator> generators;
  std::map<std::string, ValidityChecker> checkers;
  RunShrinker shrinker(generators, checkers, 10);
  RunShrinker::CaseInfo info{"v1", "v2", 7};
  auto first = shrinker.select(
      failingWith("round-trip",
                  {cause("round-trip|lost|spec.a", Severity::DataLoss, "lost|spec.a")}),
      info);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].problem, "lost|spec.a");
  EXPECT_TRUE(shrinker
                  .select(failingWith("transitivity", {cause("transitivity|lost|spec.a",
                                                             Severity::DataLoss, "lost|spec.a")}),
                          RunShrinker::CaseInfo{"v2", "v1", 8})
                  .empty());
  // Ten lost fields are ten problems: each is shrunk.
  std::vector<Cause> many;
  for (int i = 0; i < 10; ++i)
    many.push_back(cause("round-trip|lost|spec.f" + std::to_string(i), Severity::DataLoss,
                         "lost|spec.f" + std::to_string(i)));
  EXPECT_EQ(shrinker.select(failingWith("round-trip", many), info).size(), 10u);
}

TEST(RunShrinker, MostSevereProblemsAreShrunkFirst) {
  std::vector<ShrinkJob> jobs(3);
  jobs[0].problem = "cosmetic";
  jobs[0].severity = Severity::Cosmetic;
  jobs[1].problem = "rejected";
  jobs[1].severity = Severity::Rejected;
  jobs[2].problem = "loss";
  jobs[2].severity = Severity::DataLoss;
  RunShrinker::rank(jobs);
  EXPECT_EQ(jobs[0].problem, "loss");
  EXPECT_EQ(jobs[1].problem, "rejected");
  EXPECT_EQ(jobs[2].problem, "cosmetic");
}

TEST(RunShrinker, WithoutCallsLeftInTheSharedBudgetAProblemIsReportedUnshrunk) {
  std::map<std::string, ObjectGenerator> generators;
  std::map<std::string, ValidityChecker> checkers;
  RunShrinker shrinker(generators, checkers, 10);
  RunShrinker::CaseInfo info{"v1", "v2", 7};
  auto jobs = shrinker.select(failingWith("order", {cause("a", Severity::DataLoss)}), info);
  ASSERT_EQ(jobs.size(), 1u);
  shrinker.shareBudget(0);
  int calls = 0;
  auto shrunk = shrinker.shrink(jobs[0], [&](const std::vector<json>&, const std::string&) {
    ++calls;
    return CaseResult{};
  });
  EXPECT_EQ(calls, 0);
  ASSERT_TRUE(shrunk.finding.shrink);
  EXPECT_FALSE(shrunk.finding.shrink->reproduced);
  EXPECT_TRUE(shrunk.finding.shrink->budgetExhausted);
  EXPECT_TRUE(shrinker.sharedBudgetHit());
}

TEST(SharedShrinkBudget, ReservationsNeverExceedTheLimitAndUnspentCallsComeBack) {
  SharedShrinkBudget budget;
  budget.setLimit(25);
  EXPECT_EQ(budget.reserve(10), 10);
  EXPECT_EQ(budget.reserve(10), 10);
  EXPECT_EQ(budget.reserve(10), 5);
  budget.giveBack(7);
  EXPECT_EQ(budget.reserve(10), 7);
  EXPECT_EQ(budget.reserve(10), 0);
}

TEST(SharedShrinkBudget, EachShrinkGetsAtMostAnEvenShareOfWhatIsLeft) {
  SharedShrinkBudget budget;
  budget.setLimit(30, 3);
  EXPECT_EQ(budget.reserve(200), 10);  // 30 left for 3 shrinks
  budget.giveBack(6);                  // it spent 4
  EXPECT_EQ(budget.reserve(200), 13);  // 26 left for 2
  EXPECT_EQ(budget.reserve(200), 13);  // the last takes what is left
  EXPECT_EQ(budget.reserve(5), 0);
}

TEST(RunShrinker, AnUnshrunkExampleSharesTheObjectsItsCaseSentInsteadOfCopyingThem) {
  std::map<std::string, ObjectGenerator> generators;
  std::map<std::string, ValidityChecker> checkers;
  RunShrinker shrinker(generators, checkers, 0);  // --shrink-budget 0: nothing is shrunk
  auto jobs = shrinker.select(failingWith("order", {cause("a", Severity::DataLoss)}),
                              RunShrinker::CaseInfo{"v1", "v2", 7});
  ASSERT_EQ(jobs.size(), 1u);
  int calls = 0;
  ShrunkExample e = shrinker.shrink(jobs[0], [&](const std::vector<json>&, const std::string&) {
    ++calls;
    return CaseResult{};
  });
  EXPECT_EQ(calls, 0);
  ASSERT_EQ(e.finding.caseObjects.size(), 1u);
  EXPECT_TRUE(e.finding.caseObjects.holds(0, jobs[0].sent[0]))
      << "a LIST chunk's objects are held once, however many problems it shows first";
}

// A shrink the time budget never started: its example is the case as found, with what a bundle
// and the regression corpus need to replay it (objects, seed, desired version), and says it was
// not shrunk.
TEST(RunShrinker, AnExampleTheTimeBudgetLeftUnshrunkStillHoldsItsCase) {
  std::map<std::string, ObjectGenerator> generators;
  std::map<std::string, ValidityChecker> checkers;
  RunShrinker shrinker(generators, checkers, 200);
  auto jobs = shrinker.select(failingWith("order", {cause("a", Severity::DataLoss)}),
                              RunShrinker::CaseInfo{"v1", "v2", 7});
  ASSERT_EQ(jobs.size(), 1u);
  const ShrunkExample e = shrinker.unshrunk(jobs[0]);
  ASSERT_EQ(e.finding.caseObjects.size(), 1u);
  EXPECT_TRUE(e.finding.caseObjects.holds(0, jobs[0].sent[0]));
  EXPECT_EQ(e.finding.caseTo, "v2");
  EXPECT_EQ(e.finding.seed, 7u);
  ASSERT_TRUE(e.finding.shrink.has_value());
  EXPECT_FALSE(e.finding.shrink->reproduced);
  EXPECT_EQ(e.finding.shrink->calls, 0);
  EXPECT_EQ(e.finding.shrink->shrunkObjects, e.finding.shrink->originalObjects);
}

}  // namespace
}  // namespace convcheck
