// The case shrinker: fewest objects, fewest source versions, then required fields only — every
// batch it runs is schema-valid, keeps the reported pair, and the budget bounds the calls.
#include <gtest/gtest.h>

#include <set>

#include <rapidcheck.h>

#include "shrink/case_shrinker.h"
#include "shrink/object_size.h"
#include "tests/shrink/shrink_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;
using testing::PredicateRunner;

ShrinkCase generatedCase(const KindContext& kind, const std::vector<std::string>& versions,
                         const std::string& to, std::uint64_t seed) {
  ShrinkCase c;
  c.to = to;
  c.seed = seed;
  for (std::size_t i = 0; i < versions.size(); ++i)
    c.items.push_back({versions[i], testing::generatedTree(kind, versions[i], seed + i), i});
  return c;
}

std::vector<json> values(const ShrinkCase& c) {
  std::vector<json> out;
  for (const auto& i : c.items) out.push_back(i.tree.value());
  return out;
}

void expectAllValid(const KindContext& kind, const PredicateRunner& runner) {
  for (const auto& batch : runner.seen)
    for (const auto& o : batch) {
      auto v = kind.violations(o, objectVersion(o));
      EXPECT_TRUE(v.empty()) << o.dump(2) << "\n" << (v.empty() ? "" : v.front());
    }
}

TEST(CaseShrinker, PairBugShrinksToTwoObjectsWithOnlyRequiredFields) {
  const auto& kind = testing::cronTab();
  ShrinkCase c = generatedCase(kind, std::vector<std::string>(6, "v1"), "v1beta1", 11);
  PredicateRunner runner{"order", [](const std::vector<json>& b) { return b.size() >= 2; }};
  FailureTarget target{"order", CasePart::Forward, "v1", "v1beta1", "accepted"};
  auto out = shrinkFailure(c, target, testing::failing("order", values(c)), kind.schemas(),
                           runner.runner(), 400);
  EXPECT_EQ(out.batch.size(), 2u);
  EXPECT_EQ(out.info.shrunkObjects, 2);
  EXPECT_EQ(out.info.originalObjects, 6);
  EXPECT_EQ(out.info.optionalFields, 0) << out.batch[0].dump(2) << out.batch[1].dump(2);
  EXPECT_LT(out.info.shrunkFields, out.info.originalFields);
  EXPECT_EQ(out.info.calls, static_cast<int>(runner.seen.size()));
  EXPECT_TRUE(out.info.reproduced);
  EXPECT_FALSE(out.info.budgetExhausted);
  ASSERT_TRUE(out.result.finding);
  EXPECT_EQ(out.result.finding->batch, out.batch) << "the finding is the shrunk run's";
  expectAllValid(kind, runner);
}

TEST(CaseShrinker, AFailureThatIgnoresTheContentCostsTwoCalls) {
  const auto& kind = testing::cronTab();
  ShrinkCase c = generatedCase(kind, {"v1"}, "v1beta1", 31);
  PredicateRunner runner{"timeout", [](const std::vector<json>&) { return true; }};
  FailureTarget target{"timeout", CasePart::Forward, "v1", "v1beta1", "accepted"};
  auto out = shrinkFailure(c, target, testing::failing("timeout", values(c)), kind.schemas(),
                           runner.runner(), 200);
  EXPECT_EQ(out.info.calls, 2) << "the unchanged case, then the smallest valid object";
  EXPECT_EQ(out.info.optionalFields, 0) << out.batch[0].dump(2);
  expectAllValid(kind, runner);
}

TEST(CaseShrinker, NamesAndUidsStayUniqueInEveryBatch) {
  const auto& kind = testing::cronTab();
  ShrinkCase c = generatedCase(kind, std::vector<std::string>(5, "v1"), "v1beta1", 3);
  // As rebuilt from the plan, the trees may draw one name and uid twice (the runner made them
  // unique only in the batch it sent): here every object has the same ones, however it shrinks.
  for (auto& item : c.items)
    item.tree = rc::shrinkable::map(std::move(item.tree), [](json object) {
      object["metadata"]["name"] = "same-name";
      object["metadata"]["uid"] = "same-uid";
      return object;
    });
  PredicateRunner runner{"order", [](const std::vector<json>& b) { return b.size() >= 3; }};
  FailureTarget target{"order", CasePart::Forward, "v1", "v1beta1", "accepted"};
  shrinkFailure(c, target, testing::failing("order", values(c)), kind.schemas(), runner.runner(),
                300);
  // Several batches of at least three objects (the failure needs three) ran.
  std::size_t batchesOfThree = 0;
  for (const auto& batch : runner.seen) {
    if (batch.size() >= 3) ++batchesOfThree;
    std::set<std::string> names, uids;
    for (const auto& o : batch) {
      EXPECT_TRUE(names.insert(o["metadata"]["name"].get<std::string>()).second) << o.dump();
      EXPECT_TRUE(uids.insert(o["metadata"]["uid"].get<std::string>()).second) << o.dump();
    }
  }
  EXPECT_GE(batchesOfThree, 2u) << "calls: " << runner.seen.size();
}

TEST(CaseShrinker, TheBudgetBoundsTheCalls) {
  const auto& kind = testing::cronTab();
  ShrinkCase c = generatedCase(kind, std::vector<std::string>(8, "v1"), "v1beta1", 5);
  PredicateRunner runner{"order", [](const std::vector<json>& b) { return b.size() >= 2; }};
  FailureTarget target{"order", CasePart::Forward, "v1", "v1beta1", "accepted"};
  auto out = shrinkFailure(c, target, testing::failing("order", values(c)), kind.schemas(),
                           runner.runner(), 7);
  EXPECT_EQ(runner.seen.size(), 7u);
  EXPECT_EQ(out.info.calls, 7);
  EXPECT_TRUE(out.info.budgetExhausted);
  EXPECT_GE(out.batch.size(), 2u) << "what is reported still fails";
}

TEST(CaseShrinker, ForwardFailuresKeepAnObjectOfTheReportedVersionFirst) {
  const auto& kind = testing::widget();
  ShrinkCase c = generatedCase(kind, {"v1alpha1", "v1beta1", "v1beta1", "v1alpha1"}, "v1", 9);
  PredicateRunner runner{"order", [](const std::vector<json>& b) { return b.size() >= 2; }};
  FailureTarget target{"order", CasePart::Forward, "v1alpha1", "v1", "accepted"};
  auto out = shrinkFailure(c, target, testing::failing("order", values(c)), kind.schemas(),
                           runner.runner(), 300);
  for (const auto& batch : runner.seen) EXPECT_EQ(objectVersion(batch.front()), "v1alpha1");
  EXPECT_EQ(out.batch.size(), 2u);
}

TEST(CaseShrinker, MixedVersionsBecomeOneSourceVersionWhenTheFailureAllows) {
  const auto& kind = testing::widget();
  ShrinkCase c = generatedCase(kind, {"v1alpha1", "v1beta1", "v1beta1"}, "v1", 21);
  c.regenerate = [&kind](std::size_t slot,
                         const std::string& version) -> std::optional<rc::Shrinkable<json>> {
    return testing::generatedTree(kind, version, 500 + slot);
  };
  // Fails for any batch of two or more whose first object is a v1alpha1.
  PredicateRunner runner{"order", [](const std::vector<json>& b) { return b.size() >= 2; }};
  FailureTarget target{"order", CasePart::Forward, "v1alpha1", "v1", "accepted"};
  auto out = shrinkFailure(c, target, testing::failing("order", values(c)), kind.schemas(),
                           runner.runner(), 300);
  ASSERT_EQ(out.batch.size(), 2u);
  EXPECT_EQ(objectVersion(out.batch[0]), "v1alpha1");
  EXPECT_EQ(objectVersion(out.batch[1]), "v1alpha1");
  expectAllValid(kind, runner);
}

TEST(CaseShrinker, AFailureThatDoesNotReproduceKeepsTheOriginal) {
  const auto& kind = testing::cronTab();
  ShrinkCase c = generatedCase(kind, {"v1", "v1"}, "v1beta1", 2);
  PredicateRunner runner{"order", [](const std::vector<json>&) { return false; }};
  FailureTarget target{"order", CasePart::Forward, "v1", "v1beta1", "accepted"};
  CheckResult original = testing::failing("order", values(c));
  auto out = shrinkFailure(c, target, original, kind.schemas(), runner.runner(), 50);
  EXPECT_FALSE(out.info.reproduced);
  EXPECT_EQ(runner.seen.size(), 1u) << "one confirmation run, no candidates";
  EXPECT_EQ(out.info.calls, 1);
  EXPECT_EQ(out.batch, values(c));
  EXPECT_EQ(out.result.finding->batch, original.finding->batch);
}

TEST(CaseShrinker, UserObjectsWithoutTreeShrinkByTheirSchema) {
  const auto& kind = testing::cronTab();
  json big = testing::generated(kind, "v1", 77);
  big["spec"]["image"] = "registry.example.com/team/app:v1.2.3";
  ASSERT_TRUE(kind.violations(big, "v1").empty()) << big.dump(2);
  ShrinkCase c;
  c.to = "v1beta1";
  c.items.push_back({"v1", rc::shrinkable::just(big), 0});
  PredicateRunner runner{"round-trip", [](const std::vector<json>& b) {
                           return b.front()["spec"].value("image", "").size() > 8;
                         }};
  FailureTarget target{"round-trip", CasePart::Forward, "v1", "v1beta1", "accepted"};
  auto out = shrinkFailure(c, target, testing::failing("round-trip", {big}), kind.schemas(),
                           runner.runner(), 500);
  ASSERT_EQ(out.batch.size(), 1u);
  EXPECT_EQ(out.batch[0]["spec"]["image"].get<std::string>().size(), 9u);
  EXPECT_EQ(out.info.optionalFields, 1) << out.batch[0].dump(2);
  expectAllValid(kind, runner);
}

}  // namespace
}  // namespace convcheck
