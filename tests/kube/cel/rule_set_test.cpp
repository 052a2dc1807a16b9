// Validation rules as kube-apiserver evaluates them: self, oldSelf, messages, escaping, list
// types, and the cost limits apiextensions-apiserver applies when a CRD is created.
#include <gtest/gtest.h>

#include <sstream>

#include "kube/cel/rule_set.h"
#include "kube/crd/crd_loader.h"

namespace convcheck::cel {
namespace {

using nlohmann::json;

json schemaWith(const json& spec) { return {{"type", "object"}, {"properties", {{"spec", spec}}}}; }

TEST(RuleSet, AFalseRuleIsReportedWithItsMessageAtItsField) {
  auto rs = RuleSet::compile(
      schemaWith({{"type", "object"},
                  {"properties", {{"a", {{"type", "integer"}}}}},
                  {"x-kubernetes-validations",
                   json::array({{{"rule", "self.a > 1"}, {"message", "a must exceed 1"}}})}}));
  EXPECT_TRUE(rs.problems().empty());
  auto v = rs.validate({{"spec", {{"a", 0}}}});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].message, "spec: Invalid value: \"object\": a must exceed 1");
  EXPECT_TRUE(rs.validate({{"spec", {{"a", 2}}}}).empty());
}

TEST(RuleSet, WithoutAMessageTheRuleItselfIsQuoted) {
  auto rs = RuleSet::compile(schemaWith(
      {{"type", "string"},
       {"x-kubernetes-validations", json::array({{{"rule", "self.startsWith('a')"}}})}}));
  auto v = rs.validate({{"spec", "b"}});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].message, "spec: Invalid value: \"string\": failed rule: self.startsWith('a')");
}

TEST(RuleSet, AnEvaluationErrorIsReportedAsKubeApiserverWordsIt) {
  auto rs = RuleSet::compile(
      schemaWith({{"type", "object"},
                  {"properties", {{"a", {{"type", "integer"}}}}},
                  {"x-kubernetes-validations", json::array({{{"rule", "self.a > 1"}}})}}));
  auto v = rs.validate({{"spec", json::object()}});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(v[0].evaluationError);
  EXPECT_EQ(v[0].message,
            "spec: Invalid value: \"object\": no such key: a evaluating rule: self.a > 1");
}

TEST(RuleSet, ReservedPropertyNamesAreReachedEscaped) {
  auto rs = RuleSet::compile(schemaWith(
      {{"type", "object"},
       {"properties", {{"namespace", {{"type", "string"}}}}},
       {"x-kubernetes-validations", json::array({{{"rule", "self.__namespace__ == 'ns'"}}})}}));
  EXPECT_TRUE(rs.validate({{"spec", {{"namespace", "ns"}}}}).empty());
  EXPECT_EQ(rs.validate({{"spec", {{"namespace", "other"}}}}).size(), 1u);
}

TEST(RuleSet, TransitionRulesRunOnlyOnUpdatesOfValuesPresentBefore) {
  auto rs = RuleSet::compile(
      schemaWith({{"type", "object"},
                  {"properties", {{"name", {{"type", "string"}}}}},
                  {"x-kubernetes-validations",
                   json::array({{{"rule", "self == oldSelf"}, {"message", "immutable"}}})}}));
  ASSERT_EQ(rs.rules().size(), 1u);
  EXPECT_TRUE(rs.rules()[0].transition);
  const json a = {{"spec", {{"name", "a"}}}}, b = {{"spec", {{"name", "b"}}}};
  EXPECT_TRUE(rs.validate(b).empty());      // create
  EXPECT_TRUE(rs.validate(a, &a).empty());  // unchanged
  EXPECT_EQ(rs.validate(b, &a).size(), 1u);
}

TEST(RuleSet, MapListItemsAreCorrelatedByKeyForTransitionRules) {
  json items = {
      {"type", "object"},
      {"properties", {{"k", {{"type", "string"}}}, {"v", {{"type", "string"}, {"maxLength", 8}}}}},
      {"x-kubernetes-validations", json::array({{{"rule", "self.v == oldSelf.v"}}})}};
  auto rs = RuleSet::compile(schemaWith({{"type", "array"},
                                         {"maxItems", 8},
                                         {"x-kubernetes-list-type", "map"},
                                         {"x-kubernetes-list-map-keys", {"k"}},
                                         {"items", items}}));
  ASSERT_TRUE(rs.problems().empty());
  const json old = {{"spec", json::array({{{"k", "a"}, {"v", "1"}}})}};
  const json reordered = {
      {"spec", json::array({{{"k", "b"}, {"v", "9"}}, {{"k", "a"}, {"v", "1"}}})}};
  EXPECT_TRUE(rs.validate(reordered, &old).empty());
  const json changed = {{"spec", json::array({{{"k", "a"}, {"v", "2"}}})}};
  EXPECT_EQ(rs.validate(changed, &old).size(), 1u);
}

TEST(RuleSet, SetListsCompareIgnoringOrder) {
  auto rs = RuleSet::compile(schemaWith(
      {{"type", "object"},
       {"properties",
        {{"a",
          {{"type", "array"}, {"x-kubernetes-list-type", "set"}, {"items", {{"type", "string"}}}}},
         {"b",
          {{"type", "array"},
           {"x-kubernetes-list-type", "set"},
           {"items", {{"type", "string"}}}}}}},
       {"x-kubernetes-validations", json::array({{{"rule", "self.a == self.b"}}})}}));
  EXPECT_TRUE(rs.validate({{"spec", {{"a", {"x", "y"}}, {"b", {"y", "x"}}}}}).empty());
}

TEST(RuleSet, AQuadraticRuleOverAnUnboundedListExceedsTheCostLimit) {
  json list = {
      {"type", "array"},
      {"items", {{"type", "string"}}},
      {"x-kubernetes-validations", json::array({{{"rule", "self.all(x, self.all(y, x == y))"}}})}};
  auto rs = RuleSet::compile(schemaWith(list));
  ASSERT_FALSE(rs.problems().empty());
  EXPECT_NE(rs.problems()[0].find("estimated rule cost exceeds budget by factor of more than 100x"),
            std::string::npos)
      << rs.problems()[0];
  list["maxItems"] = 10;
  list["items"]["maxLength"] = 10;
  EXPECT_TRUE(RuleSet::compile(schemaWith(list)).problems().empty());
}

TEST(RuleSet, ARuleUnderAnUnboundedListCountsOncePerPossibleItem) {
  json item = {{"type", "string"},
               {"x-kubernetes-validations", json::array({{{"rule", "self.matches('^[a-z]+$')"}}})}};
  auto unbounded = RuleSet::compile(schemaWith({{"type", "array"}, {"items", item}}));
  ASSERT_EQ(unbounded.rules().size(), 1u);
  EXPECT_GT(unbounded.rules()[0].cardinality, 1000000u);
  EXPECT_FALSE(unbounded.problems().empty());
  item["maxLength"] = 64;
  auto bounded =
      RuleSet::compile(schemaWith({{"type", "array"}, {"maxItems", 16}, {"items", item}}));
  EXPECT_EQ(bounded.rules()[0].cardinality, 16u);
  EXPECT_TRUE(bounded.problems().empty());
}

TEST(RuleSet, ARuleThatDoesNotCompileIsAProblemAndIsNotEvaluated) {
  auto rs = RuleSet::compile(schemaWith(
      {{"type", "string"}, {"x-kubernetes-validations", json::array({{{"rule", "self.nope("}}})}}));
  ASSERT_EQ(rs.problems().size(), 1u);
  EXPECT_NE(rs.problems()[0].find("compilation failed"), std::string::npos);
  EXPECT_TRUE(rs.validate({{"spec", "x"}}).empty());
}

TEST(RuleSet, EveryRuleOfTheRealCrdsCompilesWithinTheCostLimits) {
  std::istringstream none;
  int rules = 0;
  for (const char* dir : {"gateway-api-standard", "gateway-api-experimental", "istio", "crossplane",
                          "cluster-api", "cluster-api-provider-aws",
                          "flux-source-controller-v1.6.0", "prometheus-operator", "cert-manager"}) {
    auto loaded = loadCrdInput(std::string(CEL_CORPUS_DIR) + "/" + dir, none);
    for (const auto& crd : loaded.crds)
      for (const auto& v : crd.versions) {
        if (v.schema.is_null()) continue;
        auto rs = RuleSet::compile(v.schema);
        rules += static_cast<int>(rs.rules().size());
        for (const auto& p : rs.problems()) ADD_FAILURE() << crd.name << " " << v.name << ": " << p;
      }
  }
  EXPECT_EQ(rules, 780);
}

}  // namespace
}  // namespace convcheck::cel
