// Generation under x-kubernetes-validations: drawn objects, their shrinks and edits satisfy the
// rules kube-apiserver evaluates; the validity check names a violated rule in its words.
#include <gtest/gtest.h>

#include "generators/object_gen.h"
#include "generators/rule_bounds.h"
#include "generators/validation_rules.h"
#include "generators/validity.h"
#include "kube/cel/program.h"
#include "tests/generators/gen_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;

// spec.a and spec.b are both optional, and the rule wants one of them: minimal objects (and
// many sparse ones) violate it unless the generator honours the rule.
json oneOfSchema() {
  return {
      {"type", "object"},
      {"required", {"spec"}},
      {"properties",
       {{"spec",
         {{"type", "object"},
          {"properties",
           {{"a", {{"type", "string"}, {"maxLength", 8}}},
            {"b", {{"type", "integer"}}},
            {"fixed",
             {{"type", "string"},
              {"maxLength", 8},
              {"x-kubernetes-validations",
               json::array({{{"rule", "self == oldSelf"}, {"message", "fixed is immutable"}}})}}}}},
          {"x-kubernetes-validations",
           json::array({{{"rule", "has(self.a) || has(self.b)"}, {"message", "a or b"}}})}}}}}};
}

TEST(ValidationRulesGeneration, EveryObjectOfEveryShapeSatisfiesTheRules) {
  const Crd crd = testing::crdWithSchema(oneOfSchema());
  auto gen = std::get<ObjectGenerator>(ObjectGenerator::compile(crd, "v1"));
  ASSERT_NE(gen.validationRules(), nullptr);
  for (const auto& o : generateObjects(gen, 7, 200))
    EXPECT_TRUE(gen.validationRules()->hold(o)) << o.dump();
  for (const auto& o : testing::sample(gen.minimal(), 50))
    EXPECT_TRUE(gen.validationRules()->hold(o)) << o.dump();
}

TEST(ValidationRulesGeneration, WithoutRulesHonouredMinimalObjectsViolateThem) {
  const Crd crd = testing::crdWithSchema(oneOfSchema());
  GeneratorOptions off;
  off.validationRules = false;
  auto gen = std::get<ObjectGenerator>(ObjectGenerator::compile(crd, "v1", off));
  ValidationRules rules(oneOfSchema());
  int violating = 0;
  for (const auto& o : testing::sample(gen.minimal(), 20))
    if (!rules.hold(o)) ++violating;
  EXPECT_EQ(violating, 20);
}

TEST(ValidationRulesGeneration, ShrinksStayInsideTheRules) {
  const Crd crd = testing::crdWithSchema(oneOfSchema());
  auto gen = std::get<ObjectGenerator>(ObjectGenerator::compile(crd, "v1"));
  rc::Random random(3);
  int checked = 0;
  for (int i = 0; i < 20; ++i) {
    auto tree = gen.objects()(random.split(), 50);
    std::vector<rc::Shrinkable<json>> level{tree};
    for (int depth = 0; depth < 3; ++depth) {
      std::vector<rc::Shrinkable<json>> next;
      for (const auto& t : level) {
        auto shrinks = t.shrinks();
        while (auto s = shrinks.next()) {
          EXPECT_TRUE(gen.validationRules()->hold(s->value())) << s->value().dump();
          ++checked;
          if (next.size() < 20) next.push_back(*s);
        }
      }
      level = std::move(next);
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(ValidationRulesGeneration, EditsSatisfyTransitionRulesAgainstTheObjectEdited) {
  const Crd crd = testing::crdWithSchema(oneOfSchema());
  auto gen = std::get<ObjectGenerator>(ObjectGenerator::compile(crd, "v1"));
  int withFixed = 0;
  for (const auto& o : generateObjects(gen, 11, 60)) {
    if (!o.contains("spec") || !o["spec"].contains("fixed")) continue;
    ++withFixed;
    for (std::uint64_t seed = 0; seed < 5; ++seed) {
      const json edited = editedCopyOf(gen, o, seed);
      EXPECT_TRUE(gen.validationRules()->hold(edited, &o)) << o.dump() << "\n" << edited.dump();
    }
  }
  EXPECT_GT(withFixed, 0);
}

IntegerBounds boundsOf(const std::string& rule) {
  auto p = std::get<cel::Program>(cel::Program::compile(rule, {"self"}));
  auto b = selfIntegerBounds(p.ast());
  EXPECT_TRUE(b.has_value()) << rule;
  return b.value_or(IntegerBounds{});
}

TEST(ValidationRulesGeneration, ValueRangeRulesAreReadAsIntervals) {
  EXPECT_EQ(boundsOf("0 < self && self <= 65535").lo, 1);
  EXPECT_EQ(boundsOf("0 < self && self <= 65535").hi, 65535);
  EXPECT_EQ(boundsOf("self >= 10").lo, 10);
  EXPECT_EQ(boundsOf("self < 2.5 && 1 <= self").hi, 2);
  EXPECT_EQ(boundsOf("self == 7").lo, 7);
  for (const char* other :
       {"self > 3 || self < 1", "size(self) < 3", "self < self", "self > 5 && self < 5"}) {
    auto p = std::get<cel::Program>(cel::Program::compile(other, {"self"}));
    EXPECT_FALSE(selfIntegerBounds(p.ast()).has_value()) << other;
  }
}

// Istio's ServiceEntry ports: integers the schema allows up to 2^32-1 that a rule keeps to
// 1-65535, in a map of at least eight entries: redraws alone almost never satisfy every one.
TEST(ValidationRulesGeneration, NumbersAreMovedIntoTheRangeOfAValueRangeRule) {
  const json port = {
      {"type", "integer"},
      {"minimum", 0},
      {"maximum", 4294967295LL},
      {"x-kubernetes-validations", json::array({{{"rule", "0 < self && self <= 65535"},
                                                 {"message", "port must be between 1-65535"}}})}};
  const json schema = {
      {"type", "object"},
      {"required", {"spec"}},
      {"properties",
       {{"spec",
         {{"type", "object"},
          {"required", {"ports"}},
          {"properties",
           {{"ports",
             {{"type", "object"}, {"minProperties", 8}, {"additionalProperties", port}}}}}}}}}};
  const Crd crd = testing::crdWithSchema(schema);
  auto gen = std::get<ObjectGenerator>(ObjectGenerator::compile(crd, "v1"));
  ASSERT_NE(gen.validationRules(), nullptr);
  for (const auto& o : generateObjects(gen, 3, 100))
    EXPECT_TRUE(gen.validationRules()->hold(o)) << o.dump();
  EXPECT_TRUE(gen.validationRules()->notes().empty()) << gen.validationRules()->notes()[0];
}

TEST(ValidationRulesValidity, AViolatedRuleIsAViolationInKubeApiserversWords) {
  const Crd crd = testing::crdWithSchema(oneOfSchema());
  auto checker = std::get<ValidityChecker>(ValidityChecker::compile(crd, "v1"));
  auto gen = std::get<ObjectGenerator>(ObjectGenerator::compile(crd, "v1"));
  json object = generateObjects(gen, 5, 1).front();
  ASSERT_TRUE(checker.checkNative(object).empty());
  object["spec"] = json::object();
  auto v = checker.checkNative(object);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].path, "spec");
  EXPECT_EQ(v[0].message, "Invalid value: \"object\": a or b");
  object["spec"]["a"] = "x";
  EXPECT_TRUE(checker.checkNative(object).empty());
}

}  // namespace
}  // namespace convcheck
