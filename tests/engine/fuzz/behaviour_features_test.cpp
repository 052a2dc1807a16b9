// The fuzz feedback: features name what a webhook did (stage, message shape, silent changes, size
// and latency classes, failed properties and causes per pair), values do not make new features,
// and the counters libFuzzer reads are set from them.
#include "engine/fuzz/behaviour_features.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>

namespace convcheck {
namespace {

bool has(const BehaviourFeatures& f, const std::string& name) {
  return std::find(f.names().begin(), f.names().end(), name) != f.names().end();
}

Exchange rejected(const std::string& message, std::chrono::microseconds elapsed) {
  Exchange e;
  e.sent.desiredApiVersion = "example.dev/v1";
  e.http.status = 200;
  e.http.body = std::string(300, 'x');
  e.http.elapsed = elapsed;
  e.verdict.stage = ModelStage::ResultStatus;
  e.verdict.message = message;
  return e;
}

CheckResult checkResult(const std::string& property, Outcome outcome) {
  CheckResult r;
  r.property = property;
  r.outcome = outcome;
  return r;
}

TEST(MaskedMessage, MasksNumbersAndQuotedValues) {
  EXPECT_EQ(maskedMessage(R"(field "spec.x" is 1234 long, max 10)"),
            R"(field "…" is 0 long, max 0)");
  EXPECT_EQ(maskedMessage(R"(bad "a\"b" here)"), R"(bad "…" here)");
}

TEST(FoldedPath, FoldsListIndices) {
  EXPECT_EQ(foldedPath("spec.ports[3].name"), "spec.ports[*].name");
  EXPECT_EQ(foldedPath("spec.a[0][12]"), "spec.a[*][*]");
}

TEST(BehaviourFeatures, AnExchangeGivesItsStageMessageShapeSizeAndLatencyClass) {
  BehaviourFeatures f;
  f.addExchange(rejected(R"(conversion failed for "obj-1": 42)", std::chrono::milliseconds(5)));
  EXPECT_TRUE(
      has(f, "example.dev/v1|stage|" + std::string(modelStageName(ModelStage::ResultStatus))));
  EXPECT_TRUE(has(f, R"(example.dev/v1|message|conversion failed for "…": 0)"));
  EXPECT_TRUE(has(f, "example.dev/v1|status|200"));
  // 300 bytes: 9 bits, the two below the leading one 00: class 9 * 4 + 0 (256..319).
  EXPECT_TRUE(has(f, "example.dev/v1|objects|0|size|36"));
  EXPECT_TRUE(has(f, "example.dev/v1|latency|3"));  // 5 ms: class 3 (4..7)
}

TEST(BehaviourFeatures, OtherValuesInTheSameMessageGiveTheSameFeatures) {
  BehaviourFeatures a, b;
  a.addExchange(rejected(R"(bad "x" at 1)", std::chrono::milliseconds(5)));
  b.addExchange(rejected(R"(bad "yz" at 77)", std::chrono::milliseconds(6)));
  EXPECT_EQ(a.names(), b.names());
  BehaviourFeatures c;
  c.addExchange(rejected(R"(missing "x")", std::chrono::milliseconds(5)));
  EXPECT_NE(a.names(), c.names());
}

TEST(BehaviourFeatures, SilentChangesGiveTheirFoldedPaths) {
  Exchange e = rejected("", std::chrono::milliseconds(1));
  e.verdict.stage = ModelStage::Accepted;
  e.verdict.silent.push_back({0, "spec.ports[2].name", "pruned", nullptr});
  BehaviourFeatures f;
  f.addExchange(e);
  EXPECT_TRUE(has(f, "example.dev/v1|pruned|spec.ports[*].name"));
}

TEST(BehaviourFeatures, FailedPropertiesAndTheirCausesArePerPair) {
  CaseResult result;
  CheckResult fail = checkResult("round-trip", Outcome::Fail);
  fail.finding.emplace();
  fail.finding->causes.push_back({"round-trip|lost|spec.replicas", Severity::DataLoss, "t", ""});
  result.forward.push_back(fail);
  result.forward.push_back(checkResult("order", Outcome::Pass));
  result.composite.push_back(checkResult("determinism", Outcome::Blocked));
  result.backwardFrom = "v1";
  result.backwardTo = {"v1beta1"};
  result.backward.push_back(checkResult("uid-echo", Outcome::Fail));
  BehaviourFeatures f;
  f.addResult(result, "v1beta1", "v1");
  EXPECT_TRUE(has(f, "v1beta1>v1|fail|round-trip"));
  EXPECT_TRUE(has(f, "v1beta1>v1|cause|round-trip|lost|spec.replicas"));
  EXPECT_TRUE(has(f, "v1beta1>v1|blocked|determinism"));
  EXPECT_TRUE(has(f, "v1>v1beta1|fail|uid-echo"));
  EXPECT_FALSE(has(f, "v1beta1>v1|fail|order"));
}

TEST(BehaviourFeatures, AnInputGivesItsFieldPathsAndListLengthsButNotItsMetadata) {
  const nlohmann::json object = {
      {"apiVersion", "example.dev/v1"},
      {"metadata", {{"name", "n"}, {"labels", {{"a", "b"}}}}},
      {"spec", {{"tags", {"x", "y", "z"}}, {"ports", {{{"name", "p"}}, {{"name", "q"}}}}}}};
  BehaviourFeatures f;
  f.addInput("v1", object);
  EXPECT_TRUE(has(f, "v1|in|.spec"));
  EXPECT_TRUE(has(f, "v1|in|.spec.tags|len|3"));
  EXPECT_TRUE(has(f, "v1|in|.spec.ports[*].name"));
  EXPECT_EQ(std::count(f.names().begin(), f.names().end(), "v1|in|.spec.ports[*].name"), 1);
  for (const auto& name : f.names()) EXPECT_EQ(name.find("metadata"), std::string::npos) << name;
  BehaviourFeatures longer;
  nlohmann::json more = object;
  more["spec"]["tags"].push_back("w");
  longer.addInput("v1", more);
  EXPECT_TRUE(has(longer, "v1|in|.spec.tags|len|4"));
}

TEST(BehaviourFeatures, CountersAreSetForEachFeatureAndSaturate) {
  BehaviourFeatures f;
  for (int i = 0; i < 300; ++i) f.addExchange(rejected("m", std::chrono::milliseconds(1)));
  std::array<std::uint8_t, 4096> counters{};
  f.writeTo(counters);
  const auto set = std::count_if(counters.begin(), counters.end(), [](auto c) { return c > 0; });
  EXPECT_GE(set, 4);
  EXPECT_EQ(*std::max_element(counters.begin(), counters.end()), 255);
  BehaviourFeatures none;
  std::array<std::uint8_t, 16> untouched{};
  none.writeTo(untouched);
  EXPECT_EQ(std::count(untouched.begin(), untouched.end(), 0), 16);
}

TEST(BehaviourFeatures, OnlyFeaturesNotSeenBeforeCountAsNewBehaviour) {
  std::unordered_set<std::uint64_t> seen;
  BehaviourFeatures first;
  first.addExchange(rejected("boom", std::chrono::milliseconds(1)));
  const std::size_t added = first.addNewTo(seen);
  EXPECT_GT(added, 0u);
  EXPECT_EQ(seen.size(), added);
  BehaviourFeatures same;  // other values, same shape
  same.addExchange(rejected("boom", std::chrono::milliseconds(1)));
  EXPECT_EQ(same.addNewTo(seen), 0u);
  BehaviourFeatures other;
  other.addExchange(rejected("another failure", std::chrono::milliseconds(1)));
  EXPECT_EQ(other.addNewTo(seen), 1u);  // its message shape only
}

// A flight's features: each as often as the case that showed it most, so a counter says what
// one case did, not how many cases of the flight did it.
TEST(BehaviourFeatures, JoinedCasesShowEachFeatureAsOftenAsTheCaseThatShowedItMost) {
  BehaviourFeatures twice, once, other;
  twice.addExchange(rejected("boom", std::chrono::milliseconds(1)));
  twice.addExchange(rejected("boom", std::chrono::milliseconds(1)));
  once.addExchange(rejected("boom", std::chrono::milliseconds(1)));
  other.addExchange(rejected("another failure", std::chrono::milliseconds(1)));
  BehaviourFeatures flight;
  flight.join(once);
  flight.join(twice);
  flight.join(once);
  flight.join(other);
  const auto count = [&](const std::string& name) {
    return std::count(flight.names().begin(), flight.names().end(), name);
  };
  EXPECT_EQ(count("example.dev/v1|message|boom"), 2);
  EXPECT_EQ(count("example.dev/v1|message|another failure"), 1);
  EXPECT_EQ(count("example.dev/v1|status|200"), 2);
}

}  // namespace
}  // namespace convcheck
