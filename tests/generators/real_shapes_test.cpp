// The shapes real objects have: lists up to their maxItems (dozens without one), maps of many
// keys, deeply nested free-form values, free strings with the punctuation of URLs, selectors,
// KEY=VALUE lists and cron lines, list items that share their `type` or `name` where the schema
// lets them, int-or-string integers over the whole int64 range; most values stay small, and the
// long ones shrink back to short ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "generators/container_shapes.h"
#include "generators/object_gen.h"
#include "generators/schema_check.h"
#include "tests/generators/gen_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;
using testing::CompiledField;
using testing::sample;

constexpr int kN = 2000;

// What one object in four is drawn in (ObjectGenerator::objects()).
const GenMode kLong{FieldCoverage::Sparse, false, {}, true};

// `n` values of `f` drawn at sizes 0..100 (as objects of a run are), each valid for its schema.
std::vector<json> valid(CompiledField& f, int n = kN) {
  std::vector<json> out = sample(f.gen, n, 7);
  for (const auto& v : out) {
    std::vector<Violation> why;
    EXPECT_TRUE(checkValue(*f.node, v, "v", &why, {}))
        << v.dump() << " — " << (why.empty() ? "" : why[0].message);
  }
  return out;
}

json objectOf(json properties, json required = json::array()) {
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", required}};
}

const json kCondition = objectOf({{"type", {{"type", "string"}}},
                                  {"status", {{"type", "string"}, {"enum", {"True", "False"}}}},
                                  {"reason", {{"type", "string"}}}},
                                 {"type", "status"});

std::size_t longest(const std::vector<json>& lists) {
  std::size_t n = 0;
  for (const auto& l : lists) n = std::max(n, l.size());
  return n;
}

TEST(RealShapes, ListsWithoutMaxItemsSometimesHoldDozensOfItems) {
  CompiledField f(json{{"type", "array"}, {"items", kCondition}}, kLong);
  const auto lists = valid(f);
  int dozens = 0, small = 0;
  for (const auto& l : lists) {
    dozens += l.size() >= 24;
    small += l.size() <= 5;
  }
  EXPECT_GE(dozens, 10) << "a list of conditions or ports runs to dozens now and then";
  EXPECT_GE(small, kN * 8 / 10) << "most lists stay short";
  EXPECT_LE(longest(lists), kLongUnbounded);
}

TEST(RealShapes, WithoutLongShapesListsMapsAndFreeFormValuesStayShort) {
  CompiledField list(json{{"type", "array"}, {"items", {{"type", "string"}}}},
                     GenMode{FieldCoverage::Full, false, {}, false});
  EXPECT_LE(longest(valid(list)), 6u);
  CompiledField map(json{{"type", "object"}, {"additionalProperties", {{"type", "string"}}}},
                    GenMode{FieldCoverage::Full, false, {}, false});
  for (const auto& m : valid(map)) EXPECT_LE(m.size(), 5u);
}

TEST(RealShapes, ListsReachTheirMaxItems) {
  CompiledField f(json{{"type", "array"}, {"maxItems", 40}, {"items", {{"type", "string"}}}},
                  kLong);
  int atMax = 0;
  for (const auto& l : valid(f)) atMax += l.size() == 40;
  EXPECT_GE(atMax, 20);
}

TEST(RealShapes, AHugeMaxItemsIsApproachedButNotDrawnInFull) {
  CompiledField f(json{{"type", "array"}, {"maxItems", 100000}, {"items", {{"type", "integer"}}}},
                  kLong);
  const auto lists = valid(f);
  EXPECT_GT(longest(lists), 60u);
  EXPECT_LE(longest(lists), kLongestList);
}

TEST(RealShapes, LongListsDoNotNestLongLists) {
  CompiledField f(
      json{{"type", "array"},
           {"items", objectOf({{"ports", {{"type", "array"}, {"items", {{"type", "integer"}}}}}})}},
      kLong);
  for (const auto& l : valid(f, 600)) {
    if (l.size() <= 5) continue;
    for (const auto& item : l) {
      if (item.contains("ports")) {
        EXPECT_LE(item["ports"].size(), 5u) << l.dump();
      }
    }
  }
}

TEST(RealShapes, MapsSometimesHoldManyKeys) {
  CompiledField f(json{{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}, kLong);
  std::size_t most = 0;
  int many = 0;
  for (const auto& m : valid(f)) {
    most = std::max(most, m.size());
    many += m.size() >= 10;
  }
  EXPECT_GE(many, 10);
  EXPECT_LE(most, kLongUnbounded);
}

int depthOf(const json& v) {
  if (!v.is_structured()) return 0;
  int d = 0;
  for (const auto& c : v) d = std::max(d, depthOf(c));
  return d + 1;
}

std::size_t widest(const json& v) {
  if (!v.is_structured()) return 0;
  std::size_t w = v.size();
  for (const auto& c : v) w = std::max(w, widest(c));
  return w;
}

TEST(RealShapes, FreeFormValuesNestDeepAndWide) {
  CompiledField f(json{{"x-kubernetes-preserve-unknown-fields", true}}, kLong);
  int deep = 0, wide = 0;
  for (const auto& v : valid(f)) {
    deep += depthOf(v) >= 5;
    wide += widest(v) >= 10;
  }
  EXPECT_GE(deep, 20) << "free-form configuration nests deeper than two levels";
  EXPECT_GE(wide, 10);
}

TEST(RealShapes, PreservedObjectsSometimesKeepManyUnknownFields) {
  CompiledField f(json{{"type", "object"},
                       {"x-kubernetes-preserve-unknown-fields", true},
                       {"properties", {{"known", {{"type", "string"}}}}}},
                  GenMode{FieldCoverage::Full, true, {}, true});
  int many = 0;
  for (const auto& v : valid(f)) many += v.size() >= 8;
  EXPECT_GE(many, 10);
}

TEST(RealShapes, FreeStringsUseEveryPrintableCharacterAndThePunctuationOfRealValues) {
  CompiledField f(json{{"type", "string"}});
  std::set<char> printable;
  std::map<std::string, int> shapes;
  for (const auto& v : valid(f, 4000)) {
    const auto& s = v.get_ref<const std::string&>();
    for (char c : s)
      if (c >= 0x20 && c < 0x7f) printable.insert(c);
    if (s.rfind("https://", 0) == 0 && s.find('?') != std::string::npos &&
        s.find('&') != std::string::npos)
      ++shapes["url"];
    if (s.rfind("CRON_TZ=", 0) == 0 || s.rfind("TZ=", 0) == 0) ++shapes["cron"];
    if (s.find("in (") != std::string::npos && s.find("!=") != std::string::npos)
      ++shapes["selector"];
    if (s.rfind("A=1;", 0) == 0) ++shapes["key=value"];
    if (s.find('@') != std::string::npos && s.find('%') != std::string::npos) ++shapes["@%"];
  }
  EXPECT_EQ(printable.size(), 95u);
  for (const char* shape : {"url", "cron", "selector", "key=value", "@%"})
    EXPECT_GE(shapes[shape], 3) << shape;
}

TEST(RealShapes, PunctuatedValuesKeepToTheLengthBounds) {
  CompiledField f(json{{"type", "string"}, {"minLength", 30}, {"maxLength", 40}});
  int punctuated = 0;
  for (const auto& v : valid(f)) {
    const auto& s = v.get_ref<const std::string&>();
    punctuated += s.find_first_of("=,;?&@%[") != std::string::npos;
  }
  EXPECT_GT(punctuated, kN / 10);
}

// Lists of `items`, drawn, with how many repeat a value of `field` among their items.
int repeating(const std::vector<json>& lists, const std::string& field) {
  int n = 0;
  for (const auto& l : lists) {
    std::set<json> seen;
    bool repeated = false;
    for (const auto& item : l)
      if (item.contains(field) && !seen.insert(item[field]).second) repeated = true;
    n += repeated;
  }
  return n;
}

TEST(RealShapes, ItemsOfAListOfConditionsShareTheirType) {
  CompiledField f(json{{"type", "array"}, {"items", kCondition}});
  const auto lists = valid(f);
  int eligible = 0;
  for (const auto& l : lists) eligible += l.size() >= 2;
  ASSERT_GT(eligible, 100);
  EXPECT_GE(repeating(lists, "type"), eligible / 6)
      << "controllers merge conditions by type: repeated types must come up";
}

TEST(RealShapes, AListMapKeyedByNameNeverRepeatsItButAPartOfACompositeKeyRepeats) {
  CompiledField byName(
      json{{"type", "array"},
           {"x-kubernetes-list-type", "map"},
           {"x-kubernetes-list-map-keys", {"name"}},
           {"items",
            objectOf({{"name", {{"type", "string"}}}, {"type", {{"type", "string"}}}}, {"name"})}});
  const auto named = valid(byName);
  EXPECT_EQ(repeating(named, "name"), 0);
  EXPECT_GT(repeating(named, "type"), 0);
  CompiledField ports(json{
      {"type", "array"},
      {"x-kubernetes-list-type", "map"},
      {"x-kubernetes-list-map-keys", {"port", "protocol"}},
      {"items", objectOf({{"port", {{"type", "integer"}}},
                          {"protocol", {{"type", "string"}, {"enum", {"TCP", "UDP", "SCTP"}}}}},
                         {"port", "protocol"})}});
  EXPECT_GT(repeating(valid(ports), "port"), 20) << "TCP and UDP on the same port";
}

TEST(RealShapes, RepeatableKeyFieldsHonourTheListMapKeys) {
  auto fields = [](const json& schema) {
    return repeatableKeyFields(
        *testing::parsedRoot({{"type", "object"}, {"properties", {{"v", schema}}}})
             ->properties.at("v"));
  };
  const json item = objectOf({{"name", {{"type", "string"}}},
                              {"type", {{"type", "string"}}},
                              {"port", {{"type", "integer"}}}},
                             {"name", "port"});
  EXPECT_EQ(fields({{"type", "array"}, {"items", item}}),
            (std::vector<std::string>{"type", "name"}));
  EXPECT_EQ(fields({{"type", "array"},
                    {"x-kubernetes-list-type", "map"},
                    {"x-kubernetes-list-map-keys", {"name"}},
                    {"items", item}}),
            (std::vector<std::string>{"type"}));
  EXPECT_EQ(fields({{"type", "array"},
                    {"x-kubernetes-list-type", "map"},
                    {"x-kubernetes-list-map-keys", {"name", "port"}},
                    {"items", item}}),
            (std::vector<std::string>{"type", "name", "port"}));
  EXPECT_TRUE(fields({{"type", "array"}, {"items", {{"type", "string"}}}}).empty());
}

TEST(RealShapes, IntOrStringIntegersCoverInt64ButMostlyFitInt32) {
  CompiledField f(json{{"x-kubernetes-int-or-string", true}});
  int ints = 0, beyond = 0;
  bool extreme = false;
  for (const auto& v : valid(f)) {
    if (!v.is_number_integer()) continue;
    ++ints;
    const std::int64_t i = v.get<std::int64_t>();
    beyond += i > 2147483647 || i < -2147483648LL;
    extreme = extreme || i == std::numeric_limits<std::int64_t>::max() ||
              i == std::numeric_limits<std::int64_t>::min();
  }
  EXPECT_GT(beyond, ints / 20);
  EXPECT_LT(beyond, ints / 2);
  EXPECT_TRUE(extreme);
}

TEST(RealShapes, ALongListShrinksToAShortOneInOneStep) {
  CompiledField f(json{{"type", "array"}, {"minItems", 1}, {"items", kCondition}}, kLong);
  rc::Random r(11);
  int checked = 0;
  for (int i = 0; i < 2000 && checked < 5; ++i) {
    auto s = f.gen(r.split(), 100);
    if (s.value().size() < 20) continue;
    ++checked;
    auto first = s.shrinks().next();
    ASSERT_TRUE(first);
    EXPECT_EQ(first->value().size(), 1u);
  }
  EXPECT_EQ(checked, 5);
}

TEST(RealShapes, SharedTypesSurviveShrinkingOrGoAwayButNeverBreakTheItem) {
  CompiledField f(json{{"type", "array"}, {"items", kCondition}});
  rc::Random r(12);
  int walked = 0;
  for (int i = 0; i < 400 && walked < 20; ++i) {
    auto s = f.gen(r.split(), 60);
    if (repeating({s.value()}, "type") == 0) continue;
    ++walked;
    const json parent = s.value();
    rc::seq::forEach(rc::seq::take(400, s.shrinks()), [&](const rc::Shrinkable<json>& x) {
      const json v = x.value();
      EXPECT_NE(v, parent) << "a shrink that changes nothing";
      EXPECT_TRUE(checkValue(*f.node, v, "v", nullptr, {})) << v.dump();
    });
  }
  EXPECT_EQ(walked, 20);
}

TEST(RealShapes, MostObjectsStaySmallAndSomeHoldLongLists) {
  const json schema = {{"type", "object"},
                       {"properties",
                        {{"apiVersion", {{"type", "string"}}},
                         {"kind", {{"type", "string"}}},
                         {"metadata", {{"type", "object"}}},
                         {"spec", objectOf({{"a", {{"type", "array"}, {"items", kCondition}}},
                                            {"b", {{"type", "array"}, {"items", kCondition}}},
                                            {"c", {{"type", "array"}, {"items", kCondition}}}},
                                           {"a", "b", "c"})}}}};
  auto g =
      std::get<ObjectGenerator>(ObjectGenerator::compile(testing::crdWithSchema(schema), "v1"));
  int withLong = 0;
  const int n = 1000;
  for (const auto& o : generateObjects(g, 2, n)) {
    bool any = false;
    for (const char* k : {"a", "b", "c"})
      any = any || o.value("spec", json::object()).value(k, json::array()).size() > 5;
    withLong += any;
  }
  EXPECT_GT(withLong, n / 25);
  EXPECT_LT(withLong, n / 4);
}

}  // namespace
}  // namespace convcheck
