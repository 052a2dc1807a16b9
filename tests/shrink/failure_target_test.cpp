// Failures are located by property, part and version pair, and compared by how they failed.
#include <gtest/gtest.h>

#include "shrink/failure_target.h"
#include "tests/shrink/shrink_fixtures.h"

namespace convcheck {
namespace {

CaseResult resultWithBackwardFailure() {
  CaseResult r;
  r.forward.push_back({"order", Outcome::Pass, std::nullopt, ""});
  r.backwardFrom = "v1";
  r.backward.push_back({"order", Outcome::Pass, std::nullopt, ""});
  r.backwardTo.push_back("v1alpha1");
  r.backward.push_back(testing::failing("order", {}));
  r.backwardTo.push_back("v1beta1");
  return r;
}

TEST(FailureTarget, FailuresOfListsBackwardFailuresUnderTheirOwnPair) {
  auto targets = failuresOf(resultWithBackwardFailure(), "v1beta1", "v1");
  ASSERT_EQ(targets.size(), 1u);
  EXPECT_EQ(targets[0].part, CasePart::Backward);
  EXPECT_EQ(targets[0].from, "v1");
  EXPECT_EQ(targets[0].to, "v1beta1");
  EXPECT_EQ(targets[0].signature, "accepted");
}

TEST(FailureTarget, LocateFindsTheBackwardResultOfTheRightSource) {
  auto r = resultWithBackwardFailure();
  FailureTarget t{"order", CasePart::Backward, "v1", "v1beta1", "accepted"};
  EXPECT_EQ(locateFailure(r, t), &r.backward[1]);
  t.to = "v1alpha1";
  EXPECT_EQ(locateFailure(r, t), nullptr);
}

TEST(FailureTarget, ADifferentStageIsNotTheSameFailure) {
  CaseResult r;
  CheckResult f = testing::failing("response-envelope", {});
  Exchange ex;
  ex.verdict.stage = ModelStage::HttpStatus;
  f.finding->exchanges.push_back(share(ex));
  r.forward.push_back(f);
  FailureTarget t{"response-envelope", CasePart::Forward, "v1", "v1beta1", "http-status"};
  EXPECT_NE(locateFailure(r, t), nullptr);
  t.signature = "result-status";
  EXPECT_EQ(locateFailure(r, t), nullptr);
  EXPECT_NE(locateFailure(r, t, false), nullptr);
}

TEST(FailureTarget, PartNamesRoundTrip) {
  for (CasePart p : {CasePart::Forward, CasePart::Backward, CasePart::Composite})
    EXPECT_EQ(casePartFromName(casePartName(p)), p);
  EXPECT_FALSE(casePartFromName("sideways"));
}

}  // namespace
}  // namespace convcheck
