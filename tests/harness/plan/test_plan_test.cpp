#include "harness/plan/test_plan.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

PlanRequest request(std::uint64_t seed = 7) {
  return {"Widget", "v1alpha1", "v1", {"v1alpha1", "v1beta1", "v1"}, 64, 32, seed};
}

TEST(TestPlan, SameSeedGivesTheSameCases) {
  auto a = planPair(request()), b = planPair(request());
  ASSERT_EQ(a.size(), 64u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].seed, b[i].seed);
    EXPECT_EQ(a[i].sourceVersions, b[i].sourceVersions);
  }
  EXPECT_NE(planPair(request(8))[0].seed, a[0].seed);
}

TEST(TestPlan, BatchesNeverContainTheTargetVersionAndStartWithFrom) {
  int batches = 0, mixed = 0;
  for (const auto& c : planPair(request())) {
    EXPECT_EQ(c.sourceVersions.front(), "v1alpha1");
    EXPECT_LE(c.sourceVersions.size(), 32u);
    for (const auto& v : c.sourceVersions) EXPECT_NE(v, "v1");
    if (c.sourceVersions.size() > 1) ++batches;
    for (const auto& v : c.sourceVersions) mixed += v == "v1beta1";
  }
  EXPECT_EQ(batches, 16);  // every fourth case
  EXPECT_GT(mixed, 0);     // batches mix source versions
}

TEST(TestPlan, SizesGrowFromSmallToLargeAndMinimalShapesAppear) {
  auto cases = planPair(request());
  EXPECT_EQ(cases.front().genSize, 0);
  EXPECT_EQ(cases.back().genSize, 100);
  EXPECT_EQ(cases[1].shape, CaseShape::Minimal);
}

TEST(TestPlan, EveryDefaultRunSendsOneListChunkOfFiveHundredObjectsPerPairMidway) {
  PlanRequest r{"Widget", "v1alpha1", "v1", {"v1alpha1", "v1beta1", "v1"}, 100};
  std::vector<int> chunks;
  for (const auto& c : planPair(r)) {
    if (c.listChunk) {
      chunks.push_back(c.index);
      EXPECT_EQ(c.sourceVersions.size(), 500u);
      for (const auto& v : c.sourceVersions) EXPECT_NE(v, "v1");
    } else {
      EXPECT_LE(c.sourceVersions.size(), 32u);
    }
  }
  EXPECT_EQ(chunks, std::vector<int>{47});  // medium-sized objects: several MB in one review
}

TEST(TestPlan, ListChunksRecurOncePerSpanAndFollowTheBatchSize) {
  PlanRequest r{"Widget", "v1alpha1", "v1", {"v1alpha1", "v1beta1", "v1"}, 10, 200};
  PairPlan plan(r);
  std::vector<int> chunks;
  for (int i = 0; i < 30; ++i) {
    auto c = plan.next();
    if (!c.listChunk) continue;
    chunks.push_back(c.index);
    EXPECT_EQ(c.sourceVersions.size(), 200u);
  }
  EXPECT_EQ(chunks, (std::vector<int>{3, 13, 23}));
}

TEST(TestPlan, ABatchSizeOf32OrLessMeansNoListChunks) {
  auto r = request();
  r.tests = 100;
  for (const auto& c : planPair(r)) EXPECT_FALSE(c.listChunk);
}

TEST(TestPlan, BatchSizeOneMeansSingleObjectsOnly) {
  auto r = request();
  r.maxBatchSize = 1;
  for (const auto& c : planPair(r)) EXPECT_EQ(c.sourceVersions.size(), 1u);
}

}  // namespace
}  // namespace convcheck

namespace convcheck {
namespace {

TEST(TestPlan, EveryTenthCaseReusesTheIdentityOfAnEarlierOne) {
  auto cases = planPair(request());
  EXPECT_FALSE(cases[5].sameIdentityAs);
  ASSERT_TRUE(cases[15].sameIdentityAs);
  EXPECT_EQ(*cases[15].sameIdentityAs, 10);
  EXPECT_EQ(cases[25].sameIdentityAs, 20);
}

TEST(TestPlan, LazyPlanContinuesPastTheTestCountWithCyclingSizes) {
  auto r = request();
  PairPlan plan(r);
  auto eager = planPair(r);
  for (int i = 0; i < r.tests; ++i) EXPECT_EQ(plan.next().seed, eager[i].seed);
  auto beyond = plan.next();
  EXPECT_EQ(beyond.index, r.tests);
  EXPECT_EQ(beyond.genSize, 0);
}

}  // namespace
}  // namespace convcheck
