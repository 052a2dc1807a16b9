// Draws carry the same values and shrinks as the rc::Gen they stand for: weightedDraw is
// rc::gen::weightedOneOf, genOf(drawOf(g)) is g, failures rethrow, the trees of the schema fold
// rebuild exactly the drawn value, and draws without trees have the same values.
#include <gtest/gtest.h>

#include <stdexcept>

#include "generators/json_draw.h"
#include "generators/json_shrinkable.h"
#include "tests/generators/gen_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;

rc::Gen<json> numbers(int lo, int hi) {
  return rc::gen::map(rc::gen::inRange(lo, hi), [](int x) { return json(x); });
}

// The values of `s` and of its first `n` shrinks, two levels deep.
std::vector<json> outline(const rc::Shrinkable<json>& s, int n = 4) {
  std::vector<json> out{s.value()};
  auto shrinks = s.shrinks();
  for (int i = 0; i < n; ++i) {
    auto next = shrinks.next();
    if (!next) break;
    out.push_back(next->value());
    auto deeper = next->shrinks().next();
    if (deeper) out.push_back(deeper->value());
  }
  return out;
}

TEST(JsonDraw, WeightedDrawChoosesAndShrinksAsWeightedOneOf) {
  const auto a = numbers(0, 1000), b = numbers(5000, 6000);
  const auto expected = rc::gen::weightedOneOf<json>({{4, a}, {1, b}});
  const auto actual = genOf(weightedDraw({{4, drawOf(a)}, {1, drawOf(b)}}));
  rc::Random r(7);
  int fromB = 0;
  for (int i = 0; i < 300; ++i) {
    const rc::Random at = r.split();
    const auto e = expected(at, 50);
    EXPECT_EQ(outline(actual(at, 50)), outline(e));
    fromB += e.value().get<int>() >= 5000;
  }
  EXPECT_GT(fromB, 20);  // both branches were taken
}

TEST(JsonDraw, PickDrawTakesTheChoiceFromTheFirstHalfOfASplitAndTheValueFromTheSecond) {
  const auto a = drawOf(rc::gen::map(rc::gen::inRange(0, 1000), [](int x) { return json(x); }));
  const auto b = drawOf(rc::gen::map(rc::gen::inRange(5000, 6000), [](int x) { return json(x); }));
  const auto picked = pickDraw({a, b});
  rc::Random r(11);
  int fromB = 0;
  for (int i = 0; i < 200; ++i) {
    const rc::Random at = r.split();
    rc::Random rest = at;
    rc::Random choice = rest.split();
    const bool second = choice.next() % 2 == 1;
    const json value = picked(at, 50).value;
    EXPECT_EQ(value, (second ? b : a)(rest, 50).value);
    fromB += second;
  }
  EXPECT_GT(fromB, 20);
  EXPECT_LT(fromB, 180);
  // A single generator is used as it is: no split.
  EXPECT_EQ(pickDraw({a})(rc::Random(3), 50).value, a(rc::Random(3), 50).value);
}

TEST(JsonDraw, GenOfDrawOfKeepsValuesAndShrinks) {
  const auto g = numbers(-100, 100);
  const auto round = genOf(drawOf(g));
  rc::Random r(3);
  for (int i = 0; i < 100; ++i) {
    const rc::Random at = r.split();
    EXPECT_EQ(outline(round(at, 30)), outline(g(at, 30)));
  }
}

TEST(JsonDraw, JustDrawIsTheValueWithoutShrinks) {
  const auto d = justDraw(json{{"a", 1}})(rc::Random(1), 10);
  EXPECT_EQ(d.value, (json{{"a", 1}}));
  EXPECT_EQ(d.tree->value(), d.value);
  EXPECT_FALSE(d.tree->shrinks().next());
}

TEST(JsonDraw, AThrowBecomesAFailedDrawThatRethrows) {
  const JsonDrawGen boom([](const rc::Random&, int, const DrawOptions&) -> JsonDraw {
    throw rc::GenerationFailure("no value here");
  });
  const auto d = boom(rc::Random(1), 10);
  ASSERT_TRUE(d.error);
  EXPECT_THROW(d.check(), rc::GenerationFailure);
  EXPECT_THROW((void)d.tree->value(), rc::GenerationFailure);
  EXPECT_THROW((void)genOf(boom)(rc::Random(1), 10).value(), rc::GenerationFailure);
}

TEST(JsonDraw, LazyShrinkablesHaveTheValueAndShrinksOfEagerOnes) {
  rc::Random r(5);
  const auto g = numbers(0, 50);
  std::vector<JsonMember> members;
  std::vector<rc::Shrinkable<json>> items;
  for (int i = 0; i < 4; ++i) {
    members.push_back({"k" + std::to_string(i), g(r.split(), 20), i % 2 == 0});
    items.push_back(g(r.split(), 20));
  }
  auto even = [](const json& v) { return v.size() % 2 == 0; };
  EXPECT_EQ(outline(lazyObjectShrinkable(members, even), 20),
            outline(objectShrinkable(members, even), 20));
  EXPECT_EQ(outline(lazyArrayShrinkable(items, 1, nullptr), 20),
            outline(arrayShrinkable(items, 1, nullptr), 20));
}

TEST(JsonDraw, SchemaTreesRebuildTheDrawnValue) {
  const json item = {
      {"type", "object"},
      {"required", {"name"}},
      {"properties",
       {{"name", {{"type", "string"}, {"maxLength", 8}}},
        {"port", {{"type", "integer"}, {"default", 80}, {"nullable", true}}},
        {"tags", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}},
        {"mode",
         {{"type", "object"},
          {"oneOf", {{{"required", {"a"}}}, {{"required", {"b"}}}}},
          {"properties", {{"a", {{"type", "boolean"}}}, {"b", {{"type", "integer"}}}}}}}}}};
  const json schema = {
      {"type", "object"},
      {"properties",
       {{"items", {{"type", "array"}, {"items", item}, {"nullable", true}}},
        {"inner",
         {{"type", "object"}, {"properties", {{"deep", item}}}, {"default", json::object()}}},
        {"free", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}}}};
  PatternStrings patterns;
  GenNotes notes;
  const auto root = testing::parsedRoot(schema);
  ASSERT_TRUE(root);
  const auto draws =
      schemaDraws(root, SchemaGenEnv{GenMode{FieldCoverage::Full, true, {}}, &patterns, &notes});
  rc::Random r(11);
  std::size_t nonEmpty = 0;
  for (int i = 0; i < 200; ++i) {
    const rc::Random at = r.split();
    const auto d = draws(at, i % 101);
    ASSERT_FALSE(d.error);
    ASSERT_TRUE(d.tree);
    EXPECT_EQ(d.tree->value(), d.value);
    // Drawn without trees: the same value, and no tree.
    const auto bare = draws(at, i % 101, DrawOptions{false});
    ASSERT_FALSE(bare.error);
    EXPECT_FALSE(bare.tree);
    EXPECT_EQ(bare.value, d.value);
    nonEmpty += d.value.size() > 1;
  }
  EXPECT_GT(nonEmpty, 50u);
}

}  // namespace
}  // namespace convcheck
