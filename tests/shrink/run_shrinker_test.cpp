// Which causes of a run are shrunk: each new cause once, a bounded number per (property, pair),
// lesser causes fewer.
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

Cause cause(const std::string& key, Severity severity) { return {key, severity, key, ""}; }

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

TEST(RunShrinker, ABoundedNumberOfCausesIsShrunkPerPropertyAndPair) {
  std::map<std::string, ObjectGenerator> generators;
  std::map<std::string, ValidityChecker> checkers;
  RunShrinker shrinker(generators, checkers, 10);
  RunShrinker::CaseInfo info{"v1", "v2", 7};
  std::vector<Cause> many;
  for (int i = 0; i < 10; ++i)
    many.push_back(cause("lost" + std::to_string(i), Severity::DataLoss));
  EXPECT_EQ(shrinker.select(failingWith("round-trip", many), info).size(),
            static_cast<std::size_t>(RunShrinker::kCausesShrunk));
  // Another property of the same pair has its own allowance.
  EXPECT_EQ(shrinker.select(failingWith("order", {cause("x", Severity::DataLoss)}), info).size(),
            1u);
}

TEST(RunShrinker, FewerCosmeticCausesAreShrunk) {
  std::map<std::string, ObjectGenerator> generators;
  std::map<std::string, ValidityChecker> checkers;
  RunShrinker shrinker(generators, checkers, 10);
  RunShrinker::CaseInfo info{"v1", "v2", 7};
  std::vector<Cause> cosmetic;
  for (int i = 0; i < 5; ++i)
    cosmetic.push_back(cause("ann" + std::to_string(i), Severity::Cosmetic));
  EXPECT_EQ(shrinker.select(failingWith("round-trip", cosmetic), info).size(),
            static_cast<std::size_t>(RunShrinker::kLesserCausesShrunk));
  EXPECT_EQ(
      shrinker.select(failingWith("round-trip", {cause("loss", Severity::DataLoss)}), info).size(),
      1u);
}

}  // namespace
}  // namespace convcheck
