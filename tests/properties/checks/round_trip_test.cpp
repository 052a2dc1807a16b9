#include "properties/checks/round_trip.h"

#include <gtest/gtest.h>

#include "properties/checks/determinism.h"
#include "properties/checks/json_diff.h"

namespace convcheck {
namespace {

using nlohmann::json;

TEST(RoundTrip, IdenticalObjectsPass) {
  json a = {{"spec", {{"image", "x"}}}};
  auto r = checkRoundTrip({a}, {a}, {}, {"v1", "v1beta1", std::chrono::milliseconds(1)});
  EXPECT_EQ(r.outcome, Outcome::Pass);
}

TEST(RoundTrip, DroppedFieldFailsAndNamesTheDeletedPath) {
  json a = {{"spec", {{"image", "x"}, {"nickname", "n"}}}};
  json b = {{"spec", {{"image", "x"}}}};
  auto r = checkRoundTrip({a}, {b}, {}, {"v1", "v1beta1", std::chrono::milliseconds(1)});
  ASSERT_EQ(r.outcome, Outcome::Fail);
  EXPECT_EQ(r.finding->summary, "a read-modify-write at v1beta1 silently deletes spec.nickname");
}

// A failure shows the batch as sent, shared with the forward exchange, unless an original (its
// stored form) differs from what was sent: then the originals, held by the finding.
TEST(RoundTrip, AFailureSharesTheSentBatchWhenTheOriginalsAreIt) {
  json a = {{"spec", {{"image", "x"}, {"nickname", "n"}}}};
  json b = {{"spec", {{"image", "x"}}}};
  Exchange forward;
  forward.sent.objects = SharedObjects::own({a, b});
  ExchangeRef ref = share(std::move(forward));
  const CaseContext ctx{"v1", "v1beta1", std::chrono::milliseconds(1)};
  std::vector<json> originals{a, b};
  auto objectAt = [&](std::size_t i) { return RoundTripObject{originals[i], b}; };
  auto shared = checkRoundTrip(2, objectAt, {}, ctx, ref->sent.objects);
  ASSERT_EQ(shared.outcome, Outcome::Fail);
  EXPECT_TRUE(shared.finding->batch.holds(0, ref->sent.objects[0]));
  EXPECT_TRUE(shared.finding->batch.holds(1, ref->sent.objects[1]));

  originals[1]["spec"]["pruned"] = false;  // not what was sent
  auto own = checkRoundTrip(2, objectAt, {}, ctx, ref->sent.objects);
  ASSERT_EQ(own.outcome, Outcome::Fail);
  EXPECT_FALSE(own.finding->batch.holds(0, ref->sent.objects[0]));
  EXPECT_TRUE(own.finding->batch == originals);
}

// An answer compared in place (returnedIn) is what is compared and shown, not `returned`.
TEST(RoundTrip, AnAnswerComparedInPlaceIsTheOneJudgedAndShown) {
  const json a = {{"spec", {{"image", "x"}, {"nickname", "n"}}}};
  const json b = {{"spec", {{"image", "x"}}}};
  const CaseContext ctx{"v1", "v1beta1", std::chrono::milliseconds(1)};
  auto in = [&](const json& back) {
    return [&](std::size_t) { return RoundTripObject{a, json("unread"), &back}; };
  };
  EXPECT_EQ(checkRoundTrip(1, in(a), {}, ctx).outcome, Outcome::Pass);
  auto lost = checkRoundTrip(1, in(b), {}, ctx);
  ASSERT_EQ(lost.outcome, Outcome::Fail);
  EXPECT_EQ(lost.finding->summary, "a read-modify-write at v1beta1 silently deletes spec.nickname");
  EXPECT_EQ(lost.finding->got, b);
  EXPECT_EQ(lost.finding->expected, a);
}

TEST(RoundTrip, AFailureNamesTheObjectForTheShrinker) {
  json a = {{"spec", {{"image", "x"}}}};
  json b = {{"spec", {{"image", "y"}, {"nickname", "n"}}}};
  json lost = {{"spec", {{"image", "y"}}}};
  auto r = checkRoundTrip({a, b}, {a, lost}, {}, {"v1", "v1beta1", std::chrono::milliseconds(1)});
  ASSERT_EQ(r.outcome, Outcome::Fail);
  EXPECT_EQ(r.finding->objectIndex, std::optional<std::size_t>(1));
}

TEST(RoundTrip, DescribesChangedAndAddedFields) {
  json a = {{"spec", {{"replicas", 3}}}};
  json b = {{"spec", {{"replicas", 2}, {"extra", true}}}};
  EXPECT_EQ(describeLoss(a, b, "v2"),
            "a read-modify-write at v2 silently changes spec.replicas; adds spec.extra");
}

TEST(JsonDiff, ReportsPathsOfNestedArraysAndQuotedKeys) {
  json a = {{"spec", {{"ports", {1, 2}}, {"a.b", "x"}}}};
  json b = {{"spec", {{"ports", {1, 3, 4}}, {"a.b", "y"}}}};
  auto d = jsonDiff(a, b);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].path, "spec[\"a.b\"]");
  EXPECT_EQ(d[1].path, "spec.ports[1]");
  EXPECT_TRUE(d[2].added);
  EXPECT_NE(renderDiff(d).find("+ spec.ports[2]: 4"), std::string::npos);
}

TEST(JsonDiff, ZeroValuesAreEmptyStringsZerosAndFalse) {
  for (const json& zero : {json(""), json(0), json(0.0), json(false)})
    EXPECT_TRUE(isZeroValue(zero));
  for (const json& other : {json("x"), json(1), json(true), json(nullptr), json::object()})
    EXPECT_FALSE(isZeroValue(other));
}

TEST(Determinism, DifferentVisibleObjectsFail) {
  Exchange a, b;
  a.verdict.visible = {json{{"y", 0}}, json{{"x", 1}}};
  b.verdict.visible = {json{{"y", 0}}, json{{"x", 2}}};
  auto r = checkDeterminism(share(a), share(b), {"v1", "v2", std::chrono::milliseconds(1)});
  ASSERT_EQ(r.outcome, Outcome::Fail);
  EXPECT_NE(r.finding->summary.find("(x)"), std::string::npos);
  EXPECT_EQ(r.finding->objectIndex, std::optional<std::size_t>(1)) << "named for the shrinker";
  EXPECT_EQ(
      checkDeterminism(share(a), share(a), {"v1", "v2", std::chrono::milliseconds(1)}).outcome,
      Outcome::Pass);
}

}  // namespace
}  // namespace convcheck
