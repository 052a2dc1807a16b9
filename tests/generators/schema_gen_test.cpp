// The schema fold, keyword by keyword: every generated value satisfies its schema, and the values
// spread over what the schema allows (bounds, extremes, empty, non-ASCII, null, absent fields).
#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <map>
#include <set>

#include <re2/re2.h>

#include "generators/json_draw.h"
#include "generators/schema_check.h"
#include "kube/go/utf8.h"
#include "tests/generators/gen_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;
using testing::CompiledField;
using testing::sample;

constexpr int kN = 600;

// Samples `n` values and asserts each satisfies the schema; returns them.
std::vector<json> validSamples(CompiledField& f, int n = kN, std::uint64_t seed = 1) {
  std::vector<json> out = sample(f.gen, n, seed);
  for (const auto& v : out) {
    std::vector<Violation> why;
    EXPECT_TRUE(checkValue(*f.node, v, "v", &why, {}))
        << v.dump() << " — " << (why.empty() ? "" : why[0].message);
  }
  return out;
}

TEST(SchemaGen, OneCompilationForAnyModeDrawsWhatEachModesOwnCompilationDraws) {
  const json schema = {
      {"type", "object"},
      {"x-kubernetes-preserve-unknown-fields", true},
      {"properties",
       {{"list",
         {{"type", "array"},
          {"items",
           {{"type", "object"},
            {"properties",
             {{"a", {{"type", "string"}}},
              {"more", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}}}}}}},
        {"labels", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}},
        {"free", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}}}};
  const auto root = testing::parsedRoot(schema);
  ASSERT_TRUE(root);
  PatternStrings patterns;
  GenNotes notes;
  const auto any = schemaDrawsForAnyMode(root, SchemaGenEnv{GenMode{}, &patterns, &notes});
  std::set<std::string> distinct;
  for (auto coverage : {FieldCoverage::Minimal, FieldCoverage::Sparse, FieldCoverage::Full})
    for (bool unknown : {false, true}) {
      const unsigned mode = drawMode(coverage, unknown);
      EXPECT_EQ(coverageOf(mode), coverage);
      EXPECT_EQ(unknownFieldsOf(mode), unknown);
      const GenMode own{coverage, unknown, {}};
      const auto expected = schemaDraws(root, SchemaGenEnv{own, &patterns, &notes});
      const auto bound = bindMode(any, mode);
      rc::Random r(21);
      std::string all;
      for (int i = 0; i < 60; ++i) {
        const rc::Random at = r.split();
        const auto e = expected(at, i + 40);
        EXPECT_EQ(bound(at, i + 40).value, e.value);
        all += e.value.dump();
      }
      distinct.insert(all);
    }
  EXPECT_EQ(distinct.size(), 6u);  // every mode draws something else
}

TEST(SchemaGen, StringsStayWithinMinAndMaxLengthInCodePoints) {
  CompiledField f(json{{"type", "string"}, {"minLength", 3}, {"maxLength", 5}});
  std::set<std::size_t> lengths;
  for (const auto& v : validSamples(f)) lengths.insert(runeCount(v.get<std::string>()));
  EXPECT_EQ(lengths, (std::set<std::size_t>{3, 4, 5}));
}

TEST(SchemaGen, FreeStringsIncludeEmptyNonAsciiAndLongOnes) {
  CompiledField f(json{{"type", "string"}});
  bool empty = false, nonAscii = false, longOne = false;
  for (const auto& v : validSamples(f, 2000)) {
    const auto& s = v.get_ref<const std::string&>();
    empty = empty || s.empty();
    longOne = longOne || runeCount(s) >= 200;
    for (unsigned char c : s) nonAscii = nonAscii || c >= 0x80;
  }
  EXPECT_TRUE(empty);
  EXPECT_TRUE(nonAscii);
  EXPECT_TRUE(longOne);
}

// How many of 2000 strings of `schema` have each length.
std::map<std::size_t, int> lengthCounts(const json& schema) {
  CompiledField f(schema);
  std::map<std::size_t, int> counts;
  for (const auto& v : validSamples(f, 2000)) ++counts[runeCount(v.get<std::string>())];
  return counts;
}

// At least one string in 50 (40 of 2000): a webhook meets each boundary in a default run.
constexpr int kUsefulShare = 40;

TEST(SchemaGen, StringsAreOftenExactlyAtMaxLengthMinLengthAndTheKubernetesLimitsBelowIt) {
  auto counts = lengthCounts(json{{"type", "string"}, {"minLength", 2}, {"maxLength", 300}});
  for (std::size_t len : {300, 2, 63, 253}) EXPECT_GE(counts[len], kUsefulShare) << len;
}

TEST(SchemaGen, UnboundedStringsAreOftenExactly63And253Long) {
  auto counts = lengthCounts(json{{"type", "string"}});
  for (std::size_t len : {63, 253}) EXPECT_GE(counts[len], kUsefulShare) << len;
}

TEST(SchemaGen, BoundaryLengthsStayWithinTheSchemasBounds) {
  auto counts = lengthCounts(json{{"type", "string"}, {"maxLength", 40}});
  EXPECT_GE(counts[40], kUsefulShare);
  EXPECT_EQ(counts.rbegin()->first, 40u);
  counts = lengthCounts(json{{"type", "string"}, {"minLength", 100}});
  EXPECT_EQ(counts.count(63), 0u);
  EXPECT_GE(counts[253], kUsefulShare);
}

TEST(SchemaGen, PatternStringsAreOftenAtTheBoundaryLengthsThePatternReaches) {
  auto counts = lengthCounts(
      json{{"type", "string"}, {"pattern", "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"}, {"maxLength", 253}});
  for (std::size_t len : {253, 63}) EXPECT_GE(counts[len], kUsefulShare) << len;
  // A pattern that cannot reach them draws as before.
  counts = lengthCounts(json{{"type", "string"}, {"pattern", "^[0-9]{2,4}$"}});
  EXPECT_EQ(counts.rbegin()->first, 4u);
}

TEST(SchemaGen, PatternStringsMatchUnanchoredUnderRe2) {
  for (const char* p :
       {"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "(^0|([0-9]*[.])?[0-9]+((K|M|G|T|E|P)i?)?B)$",
        "^(?i)(abort|warn)?$", "^2\\d{3}(?::2\\d{3}|$)", "[0-9]+"}) {
    CompiledField f(json{{"type", "string"}, {"pattern", p}, {"maxLength", 63}});
    const RE2 re(p);
    for (const auto& v : validSamples(f, 300))
      EXPECT_TRUE(RE2::PartialMatch(v.get<std::string>(), re)) << p << " " << v;
  }
}

TEST(SchemaGen, FormattedStringsPassTheFormat) {
  CompiledField f(json{{"type", "string"}, {"format", "date-time"}});
  validSamples(f);
}

TEST(SchemaGen, Int64CoversZeroNegativesExtremesAndBeyondTwoTo53) {
  CompiledField f(json{{"type", "integer"}, {"format", "int64"}});
  std::set<std::string> seen;
  for (const auto& v : validSamples(f, 3000)) {
    const auto i = v.get<std::int64_t>();
    if (i == 0) seen.insert("zero");
    if (i < 0) seen.insert("negative");
    if (i == std::numeric_limits<std::int64_t>::max()) seen.insert("max");
    if (i == std::numeric_limits<std::int64_t>::min()) seen.insert("min");
    if (i > (std::int64_t{1} << 53) || i < -(std::int64_t{1} << 53)) seen.insert("beyond 2^53");
  }
  EXPECT_EQ(seen.size(), 5u) << ::testing::PrintToString(seen);
}

TEST(SchemaGen, Int32StaysWithinInt32) {
  CompiledField f(json{{"type", "integer"}, {"format", "int32"}});
  bool hitMax = false;
  for (const auto& v : validSamples(f, 2000)) {
    const auto i = v.get<std::int64_t>();
    EXPECT_GE(i, std::numeric_limits<std::int32_t>::min());
    EXPECT_LE(i, std::numeric_limits<std::int32_t>::max());
    hitMax = hitMax || i == std::numeric_limits<std::int32_t>::max();
  }
  EXPECT_TRUE(hitMax);
}

TEST(SchemaGen, IntegerBoundsIncludingExclusiveOnesHoldAndAreReached) {
  CompiledField f(
      json{{"type", "integer"}, {"minimum", 0}, {"maximum", 65535}, {"exclusiveMinimum", true}});
  std::set<std::int64_t> seen;
  for (const auto& v : validSamples(f)) seen.insert(v.get<std::int64_t>());
  EXPECT_EQ(*seen.begin(), 1);
  EXPECT_EQ(*seen.rbegin(), 65535);
}

TEST(SchemaGen, MultipleOfHoldsForIntegersAndNumbers) {
  CompiledField i(
      json{{"type", "integer"}, {"multipleOf", 5}, {"minimum", -100}, {"maximum", 100}});
  for (const auto& v : validSamples(i)) EXPECT_EQ(v.get<std::int64_t>() % 5, 0);
  CompiledField n(json{{"type", "number"}, {"multipleOf", 0.25}, {"maximum", 10}});
  validSamples(n);
}

TEST(SchemaGen, NumbersIncludeFractionsAndWriteIntegralValuesAsIntegers) {
  CompiledField f(json{{"type", "number"}, {"format", "double"}});
  bool fraction = false, integer = false, huge = false;
  for (const auto& v : validSamples(f, 2000)) {
    if (v.is_number_float()) {
      // integral values within int64 are written as integer literals
      if (std::trunc(v.get<double>()) == v.get<double>()) {
        EXPECT_GE(std::fabs(v.get<double>()), 9.2e18) << v;
      }
      fraction = true;
      huge = huge || std::fabs(v.get<double>()) > 1e20;
    } else {
      integer = true;
    }
  }
  EXPECT_TRUE(fraction);
  EXPECT_TRUE(integer);
  EXPECT_TRUE(huge);
}

TEST(SchemaGen, EnumProducesEveryValueAndNothingElse) {
  CompiledField f(json{{"type", "string"}, {"enum", {"Always", "Never", "IfNotPresent"}}});
  std::set<std::string> seen;
  for (const auto& v : validSamples(f)) seen.insert(v.get<std::string>());
  EXPECT_EQ(seen, (std::set<std::string>{"Always", "Never", "IfNotPresent"}));
}

TEST(SchemaGen, NullableFieldsAreSometimesNullOthersNever) {
  CompiledField nullable(json{{"type", "boolean"}, {"nullable", true}});
  int nulls = 0;
  for (const auto& v : validSamples(nullable)) nulls += v.is_null();
  EXPECT_GT(nulls, 0);
  CompiledField plain(json{{"type", "boolean"}});
  for (const auto& v : validSamples(plain)) EXPECT_FALSE(v.is_null());
}

json objectWith(json props, json required) {
  return {{"type", "object"}, {"properties", props}, {"required", required}};
}

TEST(SchemaGen, RequiredFieldsAreAlwaysPresentOptionalOnesSometimes) {
  CompiledField f(objectWith(
      {{"a", {{"type", "string"}}}, {"b", {{"type", "string"}, {"default", "x"}}}}, {"a"}));
  int withB = 0;
  const auto values = validSamples(f);
  for (const auto& v : values) {
    EXPECT_TRUE(v.contains("a"));
    withB += v.contains("b");
  }
  EXPECT_GT(withB, 0);  // a defaulted field is an ordinary optional field
  EXPECT_LT(withB, static_cast<int>(values.size()));
}

TEST(SchemaGen, DefaultedFieldsSometimesCarryExactlyTheDefault) {
  CompiledField f(
      objectWith({{"mode", {{"type", "string"}, {"default", "Rolling"}}}}, json::array()),
      GenMode{FieldCoverage::Full, false, {}});
  int exact = 0, other = 0;
  for (const auto& v : validSamples(f)) {
    if (!v.contains("mode")) continue;
    (v["mode"] == "Rolling" ? exact : other)++;
  }
  EXPECT_GT(exact, 0);
  EXPECT_GT(other, 0);
}

TEST(SchemaGen, MinimalCoverageGeneratesOnlyRequiredFieldsAndMinimumSizes) {
  CompiledField f(
      objectWith({{"a", {{"type", "array"}, {"minItems", 2}, {"items", {{"type", "integer"}}}}},
                  {"b", {{"type", "string"}}},
                  {"m", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}}},
                 {"a"}),
      GenMode{FieldCoverage::Minimal, false, {}});
  for (const auto& v : validSamples(f, 200)) {
    ASSERT_EQ(v.size(), 1u) << v;
    EXPECT_EQ(v["a"].size(), 2u);
  }
}

TEST(SchemaGen, MapsRespectMinAndMaxPropertiesAndGetVariedKeys) {
  CompiledField f(json{{"type", "object"},
                       {"minProperties", 2},
                       {"maxProperties", 3},
                       {"additionalProperties", {{"type", "string"}}}});
  std::set<std::string> keys;
  for (const auto& v : validSamples(f)) {
    EXPECT_GE(v.size(), 2u);
    EXPECT_LE(v.size(), 3u);
    for (auto it = v.begin(); it != v.end(); ++it) keys.insert(it.key());
  }
  EXPECT_GT(keys.size(), 20u);
}

TEST(SchemaGen, ArraysRespectMinAndMaxItems) {
  CompiledField f(
      json{{"type", "array"}, {"minItems", 1}, {"maxItems", 3}, {"items", {{"type", "boolean"}}}});
  std::set<std::size_t> sizes;
  for (const auto& v : validSamples(f)) sizes.insert(v.size());
  EXPECT_EQ(sizes, (std::set<std::size_t>{1, 2, 3}));
}

TEST(SchemaGen, ListTypeSetItemsAreUnique) {
  CompiledField f(json{{"type", "array"},
                       {"x-kubernetes-list-type", "set"},
                       {"items", {{"type", "string"}, {"enum", {"a", "b", "c"}}}}},
                  GenMode{FieldCoverage::Full, false, {}});
  std::size_t longest = 0;
  for (const auto& v : validSamples(f)) {
    longest = std::max(longest, v.size());
    EXPECT_EQ(std::set<json>(v.begin(), v.end()).size(), v.size()) << v;
  }
  EXPECT_GE(longest, 2u);
}

TEST(SchemaGen, ListTypeMapEntriesHaveUniqueCompositeKeys) {
  CompiledField f(
      json{{"type", "array"},
           {"x-kubernetes-list-type", "map"},
           {"x-kubernetes-list-map-keys", {"port", "protocol"}},
           {"items",
            objectWith(
                {{"port", {{"type", "integer"}, {"minimum", 1}, {"maximum", 3}}},
                 {"protocol", {{"type", "string"}, {"enum", {"TCP", "UDP"}}, {"default", "TCP"}}}},
                {"port"})}},
      GenMode{FieldCoverage::Full, false, {}});
  for (const auto& v : validSamples(f)) {
    std::set<std::pair<std::int64_t, std::string>> keys;
    for (const auto& e : v) {
      ASSERT_TRUE(e.contains("protocol")) << "map keys are always generated";
      EXPECT_TRUE(
          keys.insert({e["port"].get<std::int64_t>(), e["protocol"].get<std::string>()}).second)
          << v;
    }
  }
}

TEST(SchemaGen, IntOrStringYieldsIntegersAndStrings) {
  CompiledField f(json{{"x-kubernetes-int-or-string", true},
                       {"anyOf", {{{"type", "integer"}}, {{"type", "string"}}}},
                       {"pattern", "^(\\+|-)?[0-9]+(m|Mi|Gi)?$"}});
  int ints = 0, strings = 0;
  for (const auto& v : validSamples(f)) {
    if (v.is_number_integer())
      ++ints;
    else
      ++strings;
  }
  EXPECT_GT(ints, 0);
  EXPECT_GT(strings, 0);
}

TEST(SchemaGen, PreservedObjectsGetUnknownFieldsOnlyWhenAsked) {
  const json schema = json{{"type", "object"},
                           {"x-kubernetes-preserve-unknown-fields", true},
                           {"properties", {{"known", {{"type", "string"}}}}}};
  CompiledField without(schema, GenMode{FieldCoverage::Full, false, {}});
  for (const auto& v : validSamples(without))
    for (auto it = v.begin(); it != v.end(); ++it) EXPECT_EQ(it.key(), "known");
  CompiledField with(schema, GenMode{FieldCoverage::Full, true, {}});
  int unknown = 0;
  bool nested = false;
  for (const auto& v : validSamples(with))
    for (auto it = v.begin(); it != v.end(); ++it)
      if (it.key() != "known") {
        ++unknown;
        nested = nested || it.value().is_structured();
      }
  EXPECT_GT(unknown, 0);
  EXPECT_TRUE(nested);
}

TEST(SchemaGen, TypelessPreservedFieldsHoldAnyJson) {
  CompiledField f(json{{"x-kubernetes-preserve-unknown-fields", true}});
  std::set<json::value_t> types;
  for (const auto& v : validSamples(f)) {
    EXPECT_FALSE(v.is_null());
    types.insert(v.type());
  }
  EXPECT_GE(types.size(), 5u);
}

TEST(SchemaGen, EmbeddedResourcesCarryApiVersionKindAndMetadata) {
  CompiledField f(json{{"type", "object"},
                       {"x-kubernetes-embedded-resource", true},
                       {"x-kubernetes-preserve-unknown-fields", true}},
                  GenMode{FieldCoverage::Full, true, {}});
  bool metadata = false;
  for (const auto& v : validSamples(f)) {
    EXPECT_TRUE(v["apiVersion"].is_string());
    EXPECT_TRUE(v["kind"].is_string());
    metadata = metadata || v.contains("metadata");
  }
  EXPECT_TRUE(metadata);
}

TEST(SchemaGen, OneOfOfRequiredAlternativesHoldsExactlyOneAndUsesEveryBranch) {
  // istio's shape: none of them, or exactly one of simple / consistentHash.
  CompiledField f(
      json{{"type", "object"},
           {"properties",
            {{"simple", {{"type", "string"}}}, {"consistentHash", {{"type", "object"}}}}},
           {"oneOf",
            {{{"not",
               {{"anyOf", {{{"required", {"simple"}}}, {{"required", {"consistentHash"}}}}}}}},
             {{"required", {"simple"}}},
             {{"required", {"consistentHash"}}}}}},
      GenMode{FieldCoverage::Full, false, {}});
  std::set<std::string> shapes;
  for (const auto& v : validSamples(f)) {
    EXPECT_FALSE(v.contains("simple") && v.contains("consistentHash")) << v;
    shapes.insert(v.contains("simple") ? "simple" : v.contains("consistentHash") ? "hash" : "none");
  }
  EXPECT_EQ(shapes.size(), 3u);
}

TEST(SchemaGen, OneOfWithNotEnumSeparatesTheBranches) {
  // gateway-api's addresses: IPAddress values are IPs, any other type is free-form.
  CompiledField f(
      json{{"type", "object"},
           {"required", {"value"}},
           {"properties",
            {{"type", {{"type", "string"}, {"default", "IPAddress"}, {"maxLength", 253}}},
             {"value", {{"type", "string"}, {"minLength", 1}, {"maxLength", 253}}}}},
           {"oneOf",
            {{{"properties",
               {{"type", {{"enum", {"IPAddress"}}}},
                {"value", {{"anyOf", {{{"format", "ipv4"}}, {{"format", "ipv6"}}}}}}}}},
             {{"properties", {{"type", {{"not", {{"enum", {"IPAddress"}}}}}}}}}}}},
      GenMode{FieldCoverage::Minimal, false, {}});
  bool ip = false, other = false;
  for (const auto& v : validSamples(f)) {
    if (v.value("type", "") == "IPAddress")
      ip = true;
    else
      other = true;
  }
  EXPECT_TRUE(ip);
  EXPECT_TRUE(other);
}

TEST(SchemaGen, AllOfEnumsIntersect) {
  CompiledField f(json{{"type", "string"},
                       {"allOf", {{{"enum", {"a", "b", "c"}}}, {{"enum", {"b", "c", "d"}}}}}});
  std::set<std::string> seen;
  for (const auto& v : validSamples(f)) seen.insert(v.get<std::string>());
  EXPECT_EQ(seen, (std::set<std::string>{"b", "c"}));
}

TEST(SchemaGen, NotExcludesValues) {
  CompiledField f(
      json{{"type", "integer"}, {"minimum", 0}, {"maximum", 3}, {"not", {{"enum", {0, 1}}}}});
  for (const auto& v : validSamples(f)) EXPECT_GE(v.get<std::int64_t>(), 2);
}

TEST(SchemaGen, AdditionalPropertiesTrueAcceptsAnyValues) {
  CompiledField f(json{{"type", "object"}, {"additionalProperties", true}, {"minProperties", 1}});
  validSamples(f);
}

TEST(SchemaGen, UnsatisfiableSchemasFailGenerationNamingThePath) {
  CompiledField f(json{{"type", "string"}, {"enum", {"abc"}}, {"pattern", "^x"}});
  rc::Random r(1);
  try {
    (void)f.gen(r, 50).value();
    FAIL() << "expected a generation failure";
  } catch (const rc::GenerationFailure& e) {
    EXPECT_NE(std::string(e.what()).find("properties[v]"), std::string::npos) << e.what();
  }
  ASSERT_FALSE(f.notes.all().empty());
  EXPECT_NE(f.notes.all()[0].find("enum"), std::string::npos);
}

TEST(SchemaGen, DeepUnsatisfiableRequiredFieldsFailFastInsteadOfMultiplyingRetries) {
  json schema = {{"type", "string"}, {"enum", {"abc"}}, {"pattern", "^x"}};
  for (int depth = 0; depth < 8; ++depth) schema = objectWith({{"c", schema}}, {"c"});
  CompiledField f(schema);
  const auto start = std::chrono::steady_clock::now();
  rc::Random r(1);
  EXPECT_THROW((void)f.gen(r, 50).value(), rc::GenerationFailure);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(SchemaGen, SameRandomGivesTheSameValue) {
  CompiledField f(
      objectWith({{"a", {{"type", "string"}}}, {"n", {{"type", "number"}}}}, json::array()));
  EXPECT_EQ(sample(f.gen, 50, 9), sample(f.gen, 50, 9));
  EXPECT_NE(sample(f.gen, 50, 9), sample(f.gen, 50, 10));
}

}  // namespace
}  // namespace convcheck
