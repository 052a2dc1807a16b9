// .convcheck.yaml: acknowledged differences, parsed strictly and matched by path, pair and
// property.
#include <gtest/gtest.h>

#include "properties/config/ack_config.h"

namespace convcheck {
namespace {

AckConfig parsed(const std::string& text) {
  auto r = parseAckConfig(text, ".convcheck.yaml");
  if (auto* e = std::get_if<std::string>(&r)) ADD_FAILURE() << *e;
  return std::get_if<AckConfig>(&r) ? std::get<AckConfig>(r) : AckConfig{};
}

std::string errorOf(const std::string& text) {
  auto r = parseAckConfig(text, ".convcheck.yaml");
  auto* e = std::get_if<std::string>(&r);
  return e ? *e : "";
}

TEST(AckConfig, AnAnnotationKeyMatchesItsQuotedDiffPathOnAnyPair) {
  auto c =
      parsed("acknowledge:\n  - annotation: gadgets.example.dev/converted-by\n    reason: ours\n");
  const auto* a = c.match("metadata.annotations[\"gadgets.example.dev/converted-by\"]", "v1", "v2",
                          "round-trip");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->reason, "ours");
  EXPECT_EQ(a->where, ".convcheck.yaml: acknowledge[0]");
  EXPECT_EQ(c.match("metadata.annotations[\"other.dev/x\"]", "v1", "v2", "round-trip"), nullptr);
}

TEST(AckConfig, APathCoversItsDescendantsButNotASiblingWithTheSamePrefix) {
  auto c = parsed("acknowledge:\n  - path: spec.port\n    reason: r\n");
  EXPECT_NE(c.match("spec.port", "a", "b", "round-trip"), nullptr);
  EXPECT_NE(c.match("spec.port.number", "a", "b", "round-trip"), nullptr);
  EXPECT_NE(c.match("spec.port[*]", "a", "b", "round-trip"), nullptr);
  EXPECT_EQ(c.match("spec.ports", "a", "b", "round-trip"), nullptr);
  EXPECT_EQ(c.match("spec", "a", "b", "round-trip"), nullptr);
}

TEST(AckConfig, WildcardsMatchAnyIndexAndAnyKey) {
  auto c = parsed(
      "acknowledge:\n  - path: spec.ports[*].name\n    reason: r\n"
      "  - path: spec.env.*.value\n    reason: r\n");
  EXPECT_NE(c.match("spec.ports[*].name", "a", "b", "round-trip"), nullptr);
  EXPECT_NE(c.match("spec.env.HOME.value", "a", "b", "round-trip"), nullptr);
  EXPECT_NE(c.match("spec.env.*.value", "a", "b", "round-trip"), nullptr);
  EXPECT_EQ(c.match("spec.env.HOME.other", "a", "b", "round-trip"), nullptr);
}

TEST(AckConfig, PairAndPropertyLimitWhereItApplies) {
  auto c = parsed(
      "acknowledge:\n  - path: spec.legacy\n    from: v1\n    to: v1alpha1\n"
      "    property: round-trip\n    reason: dropped on purpose\n");
  EXPECT_NE(c.match("spec.legacy", "v1", "v1alpha1", "round-trip"), nullptr);
  EXPECT_EQ(c.match("spec.legacy", "v1alpha1", "v1", "round-trip"), nullptr);
  EXPECT_EQ(c.match("spec.legacy", "v1", "v1alpha1", "transitivity"), nullptr);
}

TEST(AckConfig, ALabelKeyMatchesTheLabelsPath) {
  auto c = parsed("acknowledge:\n  - label: app\n    reason: r\n");
  EXPECT_NE(c.match("metadata.labels.app", "a", "b", "round-trip"), nullptr);
}

TEST(AckConfig, AnEmptyFileAcknowledgesNothing) {
  EXPECT_TRUE(parsed("").items.empty());
  EXPECT_TRUE(parsed("acknowledge: []\n").items.empty());
}

TEST(AckConfig, ErrorsNameTheFileTheEntryAndTheField) {
  EXPECT_EQ(errorOf("acknowledge:\n  - path: spec.x\n"),
            ".convcheck.yaml: acknowledge[0].reason: required (say why the difference is "
            "intended)");
  EXPECT_EQ(errorOf("acknowledge:\n  - path: a\n    reason: r\n  - path: b\n    reson: r\n"),
            ".convcheck.yaml: acknowledge[1].reson: unknown key (expected one of annotation, "
            "label, path, from, to, property, reason)");
  EXPECT_EQ(errorOf("acknowledge:\n  - path: a\n    annotation: b\n    reason: r\n"),
            ".convcheck.yaml: acknowledge[0]: needs exactly one of annotation, label or path");
  EXPECT_EQ(errorOf("acknowledge:\n  - path: a\n    property: nope\n    reason: r\n"),
            ".convcheck.yaml: acknowledge[0].property: unknown property id 'nope' (see "
            "`convcheck properties`)");
  EXPECT_EQ(errorOf("acknowledgements: []\n"),
            ".convcheck.yaml: acknowledgements: unknown key (expected run, fuzz, upgrade, diff or "
            "acknowledge)");
  EXPECT_NE(errorOf("acknowledge: [\n").find(".convcheck.yaml: line"), std::string::npos);
}

TEST(AckConfig, RunOptionsAreKeptByNameInFileOrder) {
  auto c = parsed(
      "run:\n  url: https://127.0.0.1:8443/convert\n  tests: 200\n  kind: [Widget, Gadget]\n"
      "  insecure-skip-tls-verify: true\nacknowledge:\n  - path: a\n    reason: r\n");
  using Options = std::vector<std::pair<std::string, std::vector<std::string>>>;
  EXPECT_EQ(c.runOptions, (Options{{"url", {"https://127.0.0.1:8443/convert"}},
                                   {"tests", {"200"}},
                                   {"kind", {"Widget", "Gadget"}},
                                   {"insecure-skip-tls-verify", {"true"}}}));
  EXPECT_EQ(c.items.size(), 1u);
  EXPECT_TRUE(parsed("acknowledge: []\n").runOptions.empty());
}

TEST(AckConfig, UpgradeAndDiffOptionsAreKeptByCommand) {
  auto c = parsed("upgrade:\n  new-crd: next/\n  objects: 10\ndiff:\n  tests: 50\n");
  using Options = std::vector<std::pair<std::string, std::vector<std::string>>>;
  EXPECT_EQ(c.optionsOf("upgrade"), (Options{{"new-crd", {"next/"}}, {"objects", {"10"}}}));
  EXPECT_EQ(c.optionsOf("diff"), (Options{{"tests", {"50"}}}));
  EXPECT_TRUE(c.optionsOf("run").empty());
  EXPECT_TRUE(c.optionsOf("nope").empty());
}

TEST(AckConfig, AcknowledgeMovesTheCoveredCausesAsideWithTheirReason) {
  auto c = parsed(
      "acknowledge:\n  - path: spec.size\n    property: read-after-upgrade\n"
      "    reason: sizes are mapped anew\n");
  std::vector<Cause> causes = {
      {"read-after-upgrade|changed|spec.size", Severity::DataLoss, "t", "spec.size"},
      {"read-after-upgrade|changed|spec.colour", Severity::DataLoss, "t", "spec.colour"},
      {"read-after-upgrade|rejected|result-status|x", Severity::Rejected, "t"}};
  auto acknowledged = c.acknowledge(causes, "v1beta1", "v1", "read-after-upgrade");
  ASSERT_EQ(acknowledged.size(), 1u);
  EXPECT_EQ(acknowledged[0].cause.path, "spec.size");
  EXPECT_EQ(acknowledged[0].reason, "sizes are mapped anew");
  EXPECT_EQ(acknowledged[0].where, ".convcheck.yaml: acknowledge[0]");
  ASSERT_EQ(causes.size(), 2u);  // a rejection has no path: never acknowledged
  EXPECT_EQ(causes[0].path, "spec.colour");
  std::vector<Cause> other = {{"migrate|changed|spec.size", Severity::DataLoss, "t", "spec.size"}};
  EXPECT_TRUE(c.acknowledge(other, "v1beta1", "v1", "migrate").empty());
  EXPECT_EQ(other.size(), 1u);
}

TEST(AckConfig, FuzzOptionsAreKeptApartFromRunOptions) {
  auto c = parsed("run:\n  tests: 200\nfuzz:\n  max-total-time: 10m\n  jobs: 2\n");
  using Options = std::vector<std::pair<std::string, std::vector<std::string>>>;
  EXPECT_EQ(c.runOptions, (Options{{"tests", {"200"}}}));
  EXPECT_EQ(c.fuzzOptions, (Options{{"max-total-time", {"10m"}}, {"jobs", {"2"}}}));
  EXPECT_EQ(errorOf("fuzz:\n  runs:\n    many: 3\n"),
            ".convcheck.yaml: fuzz.runs: expected a value or a list of values");
  EXPECT_NE(errorOf("fuzz: [runs]\n").find(".convcheck.yaml: fuzz: expected a map"),
            std::string::npos);
}

TEST(AckConfig, RunOptionsAreValuesOrListsOfValues) {
  EXPECT_EQ(errorOf("run:\n  tests:\n    many: 3\n"),
            ".convcheck.yaml: run.tests: expected a value or a list of values");
  EXPECT_EQ(errorOf("run:\n  kind: [[A]]\n"),
            ".convcheck.yaml: run.kind: expected a value or a list of values");
  EXPECT_NE(errorOf("run: [url]\n").find(".convcheck.yaml: run: expected a map"),
            std::string::npos);
}

TEST(AckConfig, AMissingFileIsAnErrorNamingIt) {
  auto r = loadAckConfig("/nonexistent/.convcheck.yaml");
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_NE(std::get<std::string>(r).find("/nonexistent/.convcheck.yaml"), std::string::npos);
}

}  // namespace
}  // namespace convcheck
