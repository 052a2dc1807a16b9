// Causes: what groups failing cases, what shrinking keeps, and what reports print first.
#include <gtest/gtest.h>

#include "properties/checks/cause_analysis.h"

namespace convcheck {
namespace {

using nlohmann::json;

const json kSchema = json::parse(R"({"type": "object", "properties": {
  "metadata": {"type": "object"},
  "spec": {"type": "object", "properties": {
    "image": {"type": "string"},
    "count": {"type": "integer"},
    "ports": {"type": "array", "items": {"type": "object",
              "properties": {"name": {"type": "string"}}}},
    "env": {"type": "object", "additionalProperties": {"type": "string"}},
    "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}})");

SchemaLookup lookup() {
  return [](const std::string& v) -> const json* { return v == "v1" ? &kSchema : nullptr; };
}

Finding roundTrip(json expected, json got) {
  Finding f;
  f.property = "round-trip";
  f.from = "v1";
  f.to = "v2";
  expected["apiVersion"] = got["apiVersion"] = "example.dev/v1";
  f.expected = std::move(expected);
  f.got = std::move(got);
  return f;
}

std::vector<std::string> keys(const std::vector<Cause>& causes) {
  std::vector<std::string> out;
  for (const auto& c : causes) out.push_back(c.key);
  return out;
}

TEST(Causes, AFieldLossAndAnAddedAnnotationAreTwoCausesDataLossFirst) {
  auto f = roundTrip(
      {{"spec", {{"image", "nginx"}}}, {"metadata", json::object()}},
      {{"spec", json::object()}, {"metadata", {{"annotations", {{"hook.dev/by", "x"}}}}}});
  auto causes = causesOf(f, lookup());
  ASSERT_EQ(causes.size(), 2u);
  EXPECT_EQ(causes[0].key, "round-trip|lost|spec.image");
  EXPECT_EQ(causes[0].severity, Severity::DataLoss);
  EXPECT_EQ(causes[1].key, "round-trip|added|metadata.annotations[\"hook.dev/by\"]");
  EXPECT_EQ(causes[1].severity, Severity::Cosmetic);
}

TEST(Causes, IndicesAndMapKeysDoNotSplitACause) {
  auto a = roundTrip({{"spec", {{"ports", {{{"name", "a"}}, {{"name", "b"}}}}}}},
                     {{"spec", {{"ports", {{{"name", "a"}}, json::object()}}}}});
  auto b = roundTrip({{"spec", {{"env", {{"HOME", "/"}}}}}}, {{"spec", {{"env", json::object()}}}});
  auto c = roundTrip({{"spec", {{"extra", {{"q", {{"r", 1}}}}}}}},
                     {{"spec", {{"extra", {{"q", json::object()}}}}}});
  EXPECT_EQ(keys(causesOf(a, lookup())),
            std::vector<std::string>{"round-trip|lost|spec.ports[*].name"});
  EXPECT_EQ(keys(causesOf(b, lookup())), std::vector<std::string>{"round-trip|lost|spec.env.*"});
  EXPECT_EQ(keys(causesOf(c, lookup())),
            std::vector<std::string>{"round-trip|lost|spec.extra.*.*"});
}

TEST(Causes, IntegersRoundedByFloat64ParsingAreTheirOwnPreciseCause) {
  auto f = roundTrip({{"spec", {{"count", 9007199254740993LL}, {"image", "x"}}}},
                     {{"spec", {{"count", 9007199254740992LL}, {"image", "x"}}}});
  auto causes = causesOf(f, lookup());
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].key, "round-trip|float64");
  EXPECT_NE(causes[0].title.find("integer 9007199254740993 came back as 9007199254740992"),
            std::string::npos);
  EXPECT_NE(causes[0].title.find("float64"), std::string::npos);
}

TEST(Causes, Float64RoundingNeedsAnIntegerBeyondTwoToThe53) {
  EXPECT_TRUE(isFloat64Rounding(json(9007199254740993LL), json(9007199254740992LL)));
  EXPECT_TRUE(isFloat64Rounding(json(-9007199254740993LL), json(-9007199254740992.0)));
  EXPECT_TRUE(isFloat64Rounding(json(18446744073709551615ULL), json(18446744073709551616.0)));
  EXPECT_FALSE(isFloat64Rounding(json(5), json(6)));
  EXPECT_FALSE(isFloat64Rounding(json(9007199254740993LL), json(9007199254740993LL)));
  EXPECT_FALSE(isFloat64Rounding(json(9007199254740993LL), json(1)));
}

TEST(Causes, ARejectedAnswerIsAnOutageKeyedByStage) {
  Finding f;
  f.property = "converts-valid-input";
  Exchange ex;
  ex.verdict.stage = ModelStage::ResultStatus;
  ex.verdict.message = "conversion failed for object my-name-7";
  f.exchanges = {share(ex)};
  auto causes = causesOf(f, lookup());
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].severity, Severity::Outage);
  EXPECT_EQ(causes[0].key.find("my-name-7"), std::string::npos);  // names do not split causes
  EXPECT_NE(causes[0].title.find("my-name-7"), std::string::npos);
}

TEST(Causes, AFailureWithoutDiffHasOneCauseNamedByItsProperty) {
  Finding f;
  f.property = "order";
  f.summary = "objects come back in another order";
  auto causes = causesOf(f, lookup());
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].key, "order|order");
  EXPECT_EQ(causes[0].title, f.summary);
}

TEST(Causes, UnknownSchemaKeepsKeysButStarsIndices) {
  std::vector<PathStep> steps = {{"finalizers"}, {"", 2, true}};
  EXPECT_EQ(normalisedPath(steps, nullptr), "finalizers[*]");
}

}  // namespace
}  // namespace convcheck
