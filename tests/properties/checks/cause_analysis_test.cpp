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

Finding rejectedWith(ModelStage stage, const std::string& message) {
  Finding f;
  f.property = "converts-valid-input";
  Exchange ex;
  ex.verdict.stage = stage;
  ex.verdict.message = message;
  ex.sent.desiredApiVersion = "example.dev/v2";
  ex.sent.objects = SharedObjects::own(
      {json{{"apiVersion", "example.dev/v1"}, {"metadata", {{"name", "web-x7k2q"}}}}});
  f.exchanges = {share(ex)};
  return f;
}

TEST(Causes, AFailureAnswerIsARejectionKeyedByStageAndMaskedMessage) {
  auto causes = causesOf(rejectedWith(ModelStage::ResultStatus,
                                      "conversion webhook for example.dev/v1, Kind=W failed: "
                                      "object web-x7k2q: spec.size 12 is not \"large\""),
                         lookup());
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].severity, Severity::Rejected);
  EXPECT_EQ(causes[0].key,
            "converts-valid-input|rejected|result-status|conversion webhook for <gvk> failed: "
            "object <v>: spec.size <v> is not \"large\"");
  EXPECT_EQ(causes[0].problem, causes[0].key.substr(causes[0].key.find('|') + 1));
  EXPECT_NE(causes[0].title.find("web-x7k2q"), std::string::npos);  // the title keeps the text
}

TEST(Causes, TwoCrashMessagesAreTwoCausesTheSameCrashOnOtherObjectsIsOne) {
  auto a = causesOf(rejectedWith(ModelStage::ResultStatus,
                                 "Cannot read properties of undefined (reading 'split')"),
                    lookup());
  auto b =
      causesOf(rejectedWith(ModelStage::ResultStatus, "Cannot convert undefined or null to object"),
               lookup());
  auto c = causesOf(rejectedWith(ModelStage::ResultStatus,
                                 "Cannot read properties of undefined (reading 'join')"),
                    lookup());
  auto d = causesOf(rejectedWith(ModelStage::ResultStatus,
                                 "Cannot read properties of undefined (reading 'split') at 12"),
                    lookup());
  EXPECT_NE(a[0].key, b[0].key);
  EXPECT_NE(a[0].key, c[0].key);  // the property the code read is the code's, not the input's
  EXPECT_EQ(a[0].key + " at <v>", d[0].key);
}

TEST(Causes, AnAnswerTheApiServerCannotUseIsAnOutage) {
  auto causes = causesOf(rejectedWith(ModelStage::HttpStatus, "the server returned 500"), lookup());
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].severity, Severity::Outage);
}

TEST(Causes, PrunedMapEntriesAreOneCauseWhateverTheirKeys) {
  Finding f;
  f.property = "no-pruned-fields";
  f.from = "v1";
  f.to = "v2";  // no schema known for v2: the source schema names the map
  Exchange ex;
  for (const char* key : {"alpha", "beta", "we.ird"})
    ex.verdict.silent.push_back({0, diffChildPath("spec.env", key), "pruned", "x"});
  f.exchanges = {share(ex)};
  EXPECT_EQ(keys(causesOf(f, lookup())),
            std::vector<std::string>{"no-pruned-fields|pruned|spec.env.*"});
}

TEST(Causes, AnIntegerRoundedThroughFloat64IsThatCauseUnderSchemaValid) {
  Finding f;
  f.property = "schema-valid";
  f.from = "v1";
  f.to = "v1";
  Exchange ex;
  ex.sent.objects = SharedObjects::own(
      {json{{"apiVersion", "example.dev/v1"}, {"spec", {{"count", 9223372036854775807LL}}}}});
  ex.verdict.visible = {
      json{{"apiVersion", "example.dev/v1"}, {"spec", {{"count", 9223372036854775808.0}}}}};
  f.exchanges = {share(ex)};
  f.details = {"index 0: spec.count: Value type not permitted by 'type' constraint."};
  auto causes = causesOf(f, lookup());
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].key, "schema-valid|float64");
  EXPECT_EQ(causes[0].problem, "float64");
  EXPECT_NE(causes[0].title.find("float64"), std::string::npos);
  EXPECT_EQ(causes[0].title.find("type"), std::string::npos) << causes[0].title;
}

TEST(Causes, ALostAChangedAndAnAddedValueAtOnePathAreCausesOfOneProblem) {
  auto lost =
      causesOf(roundTrip({{"spec", {{"image", "a"}}}}, {{"spec", json::object()}}), lookup());
  auto changed =
      causesOf(roundTrip({{"spec", {{"image", "a"}}}}, {{"spec", {{"image", "b"}}}}), lookup());
  auto added =
      causesOf(roundTrip({{"spec", json::object()}}, {{"spec", {{"image", "b"}}}}), lookup());
  EXPECT_EQ(lost[0].key, "round-trip|lost|spec.image");
  EXPECT_EQ(changed[0].key, "round-trip|changed|spec.image");
  for (const auto* c : {&lost, &changed, &added}) EXPECT_EQ((*c)[0].problem, "field|spec.image");
}

TEST(Causes, EntriesAddedToAListAndAWholeListAddedAreOneProblem) {
  const json one = json::array({{{"name", "a"}}});
  const json two = json::array({{{"name", "a"}}, {{"name", "b"}}});
  auto entry =
      causesOf(roundTrip({{"spec", {{"ports", one}}}}, {{"spec", {{"ports", two}}}}), lookup());
  auto whole =
      causesOf(roundTrip({{"spec", json::object()}}, {{"spec", {{"ports", one}}}}), lookup());
  EXPECT_EQ(entry[0].key, "round-trip|added|spec.ports[*]");
  EXPECT_EQ(whole[0].key, "round-trip|added|spec.ports");
  EXPECT_EQ(entry[0].problem, "field|spec.ports");
  EXPECT_EQ(whole[0].problem, "field|spec.ports");
}

TEST(Causes, AFloatBeyondTwoToThe53WhereAnIntegerBelongsIsFloat64RoundingUnderAnotherName) {
  Finding f;
  f.property = "schema-valid";
  f.from = "v1";
  f.to = "v1";
  Exchange ex;
  // The source version names the field otherwise: the sent object has no spec.count.
  ex.sent.objects = SharedObjects::own(
      {json{{"apiVersion", "example.dev/v1"}, {"spec", {{"total", 9223372036854775807LL}}}}});
  ex.verdict.visible = {
      json{{"apiVersion", "example.dev/v1"}, {"spec", {{"count", 9223372036854775808.0}}}}};
  f.exchanges = {share(ex)};
  f.details = {"index 0: spec.count: must be an integer"};
  auto causes = causesOf(f, lookup());
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].key, "schema-valid|float64");
}

TEST(Causes, AMissingRequiredFieldIsOneCauseThoughBothValidatorsNameIt) {
  Finding f;
  f.property = "schema-valid";
  f.from = "v1";
  f.to = "v1";
  f.details = {"index 0: spec: valijson: Missing required property 'image'.",
               "index 0: spec.image: required field is missing"};
  auto causes = causesOf(f, lookup());
  EXPECT_EQ(keys(causes), std::vector<std::string>{"schema-valid|invalid|spec.image"});
  EXPECT_EQ(causes[0].title, "spec.image: required field is missing");
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

namespace contamination {

json annotated(int i, json annotations) {
  return {{"apiVersion", "example.dev/v1"},
          {"metadata", {{"name", "o" + std::to_string(i)}, {"annotations", annotations}}}};
}

// A finding on the last object of a batch of `objects`, each written with an annotation of its
// own, that came back with the annotations of every object before it too (state kept across the
// webhook's loop).
Finding leakedInto(int objects, const std::string& property, const std::string& key = "k",
                   const std::string& value = "v") {
  std::vector<json> batch;
  json leaked = json::object();
  for (int i = 0; i < objects; ++i) {
    const json own = {{key + std::to_string(i), value + std::to_string(i)}};
    batch.push_back(annotated(i, own));
    leaked.update(own);
  }
  Finding f;
  f.property = property;
  f.expected = batch.back();
  f.got = annotated(objects - 1, leaked);
  Exchange ex;
  ex.sent.objects = SharedObjects::own(batch);
  f.exchanges = {share(std::move(ex))};
  return f;
}

TEST(Causes, EveryAnnotationOfTheObjectsBeforeItInALargeBatchIsOneContaminationCause) {
  // 299 leaked annotations, each held by one of 300 objects: every one is looked up.
  auto causes = causesOf(leakedInto(300, "round-trip", "team.example/k"), lookup());
  EXPECT_EQ(keys(causes),
            std::vector<std::string>{"round-trip|contamination|metadata.annotations"});
  ASSERT_FALSE(causes.empty());
  EXPECT_EQ(causes[0].severity, Severity::DataLoss);
}

TEST(Causes, AnAddedKeyOfAnyLengthIsContaminationAChangedShortValueIsChance) {
  for (const std::string property : {"round-trip", "batch-independence"})
    EXPECT_EQ(keys(causesOf(leakedInto(3, property, "x", ""), lookup())),
              std::vector<std::string>{property + "|contamination|metadata.annotations"});
  // "ab" changed to the "cd" another object holds: two short values alike are chance.
  Finding f = leakedInto(2, "round-trip", "x", "");
  f.expected = annotated(1, {{"x", "ab"}});
  f.got = annotated(1, {{"x", "cd"}});
  Exchange ex;
  ex.sent.objects = SharedObjects::own({annotated(0, {{"x", "cd"}}), f.expected});
  f.exchanges = {share(std::move(ex))};
  EXPECT_EQ(keys(causesOf(f, lookup())),
            std::vector<std::string>{"round-trip|changed|metadata.annotations.x"});
}

TEST(Causes, AKeyWithADotIsNotThePathItSpellsWhenLookingForAnotherObjectsValue) {
  // Another object holds spec["x.y"]; this one came back with spec.x.y: a different field.
  Finding f = leakedInto(2, "round-trip");
  f.expected = annotated(1, json::object());
  f.expected["spec"] = {{"x", json::object()}};
  f.got = f.expected;
  f.got["spec"]["x"]["y"] = "shared value";
  json other = annotated(0, json::object());
  other["spec"] = {{"x.y", "shared value"}};
  Exchange ex;
  ex.sent.objects = SharedObjects::own({other, f.expected});
  f.exchanges = {share(std::move(ex))};
  const auto found = keys(causesOf(f, lookup()));
  ASSERT_FALSE(found.empty());
  for (const auto& key : found) EXPECT_EQ(key.find("contamination"), std::string::npos) << key;
}

}  // namespace contamination
}  // namespace
}  // namespace convcheck
