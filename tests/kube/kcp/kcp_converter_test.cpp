// kcp's converter as kcp's pkg/conversion behaves: a copy of the original under the target
// apiVersion, rules keyed by `from` only and run in order, a missing source set to null without
// evaluating anything, CEL results through cel-go's JSON conversion, preserve annotations stored
// on the way out and restored (and dropped) on the way back, kcp's errors naming the rule.
#include <gtest/gtest.h>

#include "kube/kcp/kcp_converter.h"

namespace convcheck::kcp {
namespace {

using nlohmann::json;

ApiConversion decoded(const json& spec) {
  json object = {{"apiVersion", "apis.kcp.io/v1alpha1"},
                 {"kind", "APIConversion"},
                 {"metadata", {{"name", "widgets.example.io"}}},
                 {"spec", spec}};
  auto d = decodeApiConversion(object, "conv.yaml");
  if (auto* errors = std::get_if<std::vector<std::string>>(&d)) {
    ADD_FAILURE() << (*errors)[0];
    return {};
  }
  return std::get<ApiConversion>(d);
}

KcpConverter compiled(const json& spec) {
  auto c = KcpConverter::compile(decoded(spec));
  if (auto* errors = std::get_if<std::vector<std::string>>(&c)) {
    ADD_FAILURE() << (*errors)[0];
    return std::get<KcpConverter>(KcpConverter::compile(ApiConversion{}));
  }
  return std::get<KcpConverter>(c);
}

json converted(const KcpConverter& c, const json& object, const std::string& to) {
  auto r = c.convert(object, to);
  if (auto* f = std::get_if<ConversionFailure>(&r)) {
    ADD_FAILURE() << f->what << ": " << f->message;
    return nullptr;
  }
  return std::get<json>(r);
}

// kcp's documented example (docs/content/concepts/apis/api-conversion.md).
const json kWidgets = json::parse(R"js({"conversions": [
  {"from": "v1", "to": "v2", "rules": [
    {"field": ".spec.firstName", "destination": ".spec.name.first"},
    {"field": ".spec.lastName", "destination": ".spec.name.last"},
    {"field": ".spec.lastName", "destination": ".spec.name.lastUpper",
     "transformation": "self.upperAscii()"}]},
  {"from": "v2", "to": "v1", "rules": [
    {"field": ".spec.name.first", "destination": ".spec.firstName"},
    {"field": ".spec.name.last", "destination": ".spec.lastName"}],
   "preserve": [".spec.someNewField"]}]})js");

json widget(const std::string& version, const json& spec) {
  return {{"apiVersion", "example.io/" + version},
          {"kind", "Widget"},
          {"metadata", {{"name", "bob"}}},
          {"spec", spec}};
}

TEST(KcpConverter, RulesSetTheirDestinationsOnACopyOfTheOriginal) {
  const json v2 =
      converted(compiled(kWidgets), widget("v1", {{"firstName", "Bob"}, {"lastName", "Jones"}}),
                "example.io/v2");
  EXPECT_EQ(
      v2, widget("v2", {{"firstName", "Bob"},  // left for kube-apiserver to prune
                        {"lastName", "Jones"},
                        {"name", {{"first", "Bob"}, {"last", "Jones"}, {"lastUpper", "JONES"}}}}));
}

TEST(KcpConverter, AMissingSourceSetsNullWithoutEvaluatingTheTransformation) {
  const json v2 =
      converted(compiled(kWidgets), widget("v1", {{"firstName", "Bob"}}), "example.io/v2");
  EXPECT_EQ(v2["spec"]["name"],
            json({{"first", "Bob"}, {"last", nullptr}, {"lastUpper", nullptr}}));
  const json noSpec = converted(
      compiled(kWidgets), {{"apiVersion", "example.io/v1"}, {"kind", "Widget"}}, "example.io/v2");
  EXPECT_EQ(noSpec["spec"]["name"],
            json({{"first", nullptr}, {"last", nullptr}, {"lastUpper", nullptr}}));
}

TEST(KcpConverter, PreservedFieldsGoIntoAnAnnotationAndComeBackFromIt) {
  const KcpConverter c = compiled(kWidgets);
  const json original = widget("v2", {{"name", {{"first", "Al"}, {"last", "Smith"}}},
                                      {"someNewField", {{"hello", "world"}, {"n", 7}}}});
  const json v1 = converted(c, original, "example.io/v1");
  EXPECT_EQ(v1["metadata"]["annotations"],
            json({{"preserve.conversion.apis.kcp.io/v2",
                   R"js({"spec.someNewField":{"hello":"world","n":7}})js"}}));
  json stored = v1;  // as kube-apiserver keeps it: v1's fields only
  stored["spec"] = {{"firstName", "Al"}, {"lastName", "Smith"}};
  const json back = converted(c, stored, "example.io/v2");
  EXPECT_EQ(back["spec"]["someNewField"], original["spec"]["someNewField"]);
  EXPECT_FALSE(back["metadata"].contains("annotations")) << back.dump();
}

TEST(KcpConverter, ARestoredAnnotationIsDroppedAndNothingIsStoredOnThatWay) {
  json spec = kWidgets;
  spec["conversions"][0]["preserve"] = {".spec.firstName"};
  const KcpConverter c = compiled(spec);
  json v1 = widget("v1", {{"firstName", "Bob"}});
  v1["metadata"]["annotations"] = {{"keep", "me"},
                                   {"preserve.conversion.apis.kcp.io/v2", R"js({"spec.x":1})js"}};
  const json v2 = converted(c, v1, "example.io/v2");
  // The target's annotation was restored and dropped; v1's own preserve fields are not stored.
  EXPECT_EQ(v2["metadata"]["annotations"], json({{"keep", "me"}}));
  EXPECT_EQ(v2["spec"]["x"], 1);
}

TEST(KcpConverter, APreserveAnnotationOfNullRestoresNothingAndOtherValuesFailAsGoDoes) {
  const KcpConverter c = compiled(kWidgets);
  json v1 = widget("v1", {{"firstName", "Bob"}});
  v1["metadata"]["annotations"] = {{"preserve.conversion.apis.kcp.io/v2", "null"}};
  const json v2 = converted(c, v1, "example.io/v2");
  EXPECT_FALSE(v2["metadata"].contains("annotations")) << v2.dump();
  v1["metadata"]["annotations"] = {{"preserve.conversion.apis.kcp.io/v2", "[1]"}};
  auto r = c.convert(v1, "example.io/v2");
  ASSERT_TRUE(std::holds_alternative<ConversionFailure>(r));
  EXPECT_EQ(std::get<ConversionFailure>(r).message,
            "error unmarshaling preserve annotation: json: cannot unmarshal array into Go value of "
            "type map[string]interface {}");
  v1["metadata"]["annotations"] = {{"preserve.conversion.apis.kcp.io/v2", "7"}};
  r = c.convert(v1, "example.io/v2");
  ASSERT_TRUE(std::holds_alternative<ConversionFailure>(r));
  EXPECT_EQ(std::get<ConversionFailure>(r).where,
            "metadata.annotations[preserve.conversion.apis.kcp.io/v2]");
  EXPECT_NE(std::get<ConversionFailure>(r).message.find("cannot unmarshal number"),
            std::string::npos);
}

TEST(KcpConverter, TheLastEntryWithAFromWinsWhateverItsTarget) {
  json spec = kWidgets;
  spec["conversions"].push_back(json::parse(R"js({"from": "v1", "to": "v3", "rules": [
      {"field": ".spec.firstName", "destination": ".spec.given"}]})js"));
  const json v2 = converted(compiled(spec), widget("v1", {{"firstName", "Bob"}}), "example.io/v2");
  EXPECT_EQ(v2["spec"]["given"], "Bob");
  EXPECT_FALSE(v2["spec"].contains("name")) << v2.dump();
}

TEST(KcpConverter, RulesRunInOrder) {
  const json spec = json::parse(R"js({"conversions": [{"from": "v1", "to": "v2", "rules": [
      {"field": ".spec.a", "destination": ".spec.out", "transformation": "{'x': self}"},
      {"field": ".spec.b", "destination": ".spec.out.y"}]}]})js");
  const json v2 =
      converted(compiled(spec), widget("v1", {{"a", "A"}, {"b", "B"}}), "example.io/v2");
  EXPECT_EQ(v2["spec"]["out"], json({{"x", "A"}, {"y", "B"}}));
}

TEST(KcpConverter, ADestinationUnderAValueThatIsNoObjectFailsNamingTheRule) {
  const json spec = json::parse(R"js({"conversions": [{"from": "v1", "to": "v2", "rules": [
      {"field": ".spec.a", "destination": ".spec.out"},
      {"field": ".spec.b", "destination": ".spec.out.inner"}]}]})js");
  auto r = compiled(spec).convert(widget("v1", {{"a", "text"}, {"b", 1}}), "example.io/v2");
  ASSERT_TRUE(std::holds_alternative<ConversionFailure>(r));
  const auto& f = std::get<ConversionFailure>(r);
  EXPECT_EQ(f.where, "spec.conversions[0].rules[1]");
  EXPECT_EQ(f.message,
            "error converting: error setting destination field \"spec.out.inner\": value cannot be "
            "set because .spec.out is not a map[string]interface{}");
  EXPECT_EQ(f.what, "CEL rule `spec.conversions[0].rules[1]` (.spec.b -> .spec.out.inner)");
}

TEST(KcpConverter, AnEvaluationErrorFailsTheObjectNamingTheRule) {
  const json spec = json::parse(R"js({"conversions": [{"from": "v1", "to": "v2", "rules": [
      {"field": ".spec", "destination": ".spec.name",
       "transformation": "{'first': self.firstName, 'last': self.lastName}"}]}]})js");
  auto r = compiled(spec).convert(widget("v1", {{"firstName", "Bob"}}), "example.io/v2");
  ASSERT_TRUE(std::holds_alternative<ConversionFailure>(r));
  EXPECT_EQ(std::get<ConversionFailure>(r).message,
            "error converting: error executing transformation: no such key: lastName");
}

TEST(KcpConverter, ResultsPassThroughCelGosJsonConversion) {
  const json spec = json::parse(R"js({"conversions": [{"from": "v1", "to": "v2", "rules": [
      {"field": ".spec.n", "destination": ".spec.big", "transformation": "self * 1024"},
      {"field": ".spec.n", "destination": ".spec.small", "transformation": "self + 1"},
      {"field": ".spec.n", "destination": ".spec.nothing", "transformation": "null"},
      {"field": ".spec.n", "destination": ".spec.d", "transformation": "duration('90s')"}]}]})js");
  const json v2 =
      converted(compiled(spec), widget("v1", {{"n", 9007199254740991LL}}), "example.io/v2");
  EXPECT_EQ(v2["spec"]["big"], "9223372036854774784");  // beyond 2^53: a string
  EXPECT_EQ(v2["spec"]["small"], "9007199254740992");
  EXPECT_TRUE(v2["spec"]["nothing"].is_null());
  EXPECT_EQ(v2["spec"]["d"], "90s");
}

TEST(KcpConverter, PreservedIntegersComeBackAsFloat64HoldsThem) {
  json spec = kWidgets;
  spec["conversions"][1]["preserve"] = {".spec.count"};
  const KcpConverter c = compiled(spec);
  const json v1 = converted(c, widget("v2", {{"count", 9007199254740993LL}}), "example.io/v1");
  json stored = v1;
  stored["spec"] = json::object();
  const json back = converted(c, stored, "example.io/v2");
  EXPECT_EQ(back["spec"]["count"], 9007199254740992LL);  // json.Unmarshal reads float64
}

TEST(KcpConverter, AnObjectOfAVersionWithoutRulesIsCopiedUnderTheTargetVersion) {
  const json v3 = converted(compiled(kWidgets), widget("v3", {{"x", 1}}), "example.io/v1");
  EXPECT_EQ(v3, widget("v1", {{"x", 1}}));
}

TEST(KcpConverter, TransformationsThatDoNotCompileAreErrorsNamingTheRule) {
  const json spec = json::parse(R"js({"conversions": [{"from": "v1", "to": "v2", "rules": [
      {"field": ".spec.a", "destination": ".spec.b", "transformation": "self.foo was here"},
      {"field": ".spec.a", "destination": ".spec.c", "transformation": "nope"}]}]})js");
  auto c = KcpConverter::compile(decoded(spec));
  ASSERT_TRUE(std::holds_alternative<std::vector<std::string>>(c));
  const auto& errors = std::get<std::vector<std::string>>(c);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].rfind("conv.yaml: spec.conversions[0].rules[0].transformation: Invalid "
                            "value: \"self.foo was here\": error compiling CEL program: ERROR: ",
                            0),
            0u)
      << errors[0];
  EXPECT_NE(errors[1].find("undeclared reference to 'nope'"), std::string::npos) << errors[1];
}

Crd widgetsCrd() {
  Crd crd;
  crd.name = "widgets.example.io";
  crd.group = "example.io";
  crd.kind = "Widget";
  auto spec = [](const json& properties) {
    return json{{"type", "object"},
                {"properties", {{"spec", {{"type", "object"}, {"properties", properties}}}}}};
  };
  crd.versions.push_back({"v1", true, true, false,
                          spec({{"firstName", {{"type", "string"}}},
                                {"lastName", {{"type", "string"}}},
                                {"free", {{"x-kubernetes-preserve-unknown-fields", true}}}}),
                          false});
  crd.versions.push_back(
      {"v2", true, false, false,
       spec(
           {{"name",
             {{"type", "object"},
              {"properties", {{"first", {{"type", "string"}}}, {"last", {{"type", "string"}}}}}}}}),
       false});
  return crd;
}

TEST(KcpConverter, SchemaProblemsAreWhatKcpsAdmissionRefuses) {
  const json spec = json::parse(R"js({"conversions": [
      {"from": "v1", "to": "v2", "rules": [
        {"field": ".spec.nickName", "destination": ".spec.name.first"},
        {"field": ".spec.firstName.x", "destination": ".spec.name.first2"},
        {"field": ".spec.free", "destination": ".spec.name.last", "transformation": "self"},
        {"field": ".spec.lastName", "destination": ".spec.name.last2"}]},
      {"from": "v9", "to": "v1", "rules": []}]})js");
  const auto problems = schemaProblems(decoded(spec), widgetsCrd());
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_EQ(problems[0],
            "conv.yaml: spec.conversions[0].rules[0].field: Invalid value: \".spec.nickName\": "
            "field \"spec.nickName\" doesn't exist");
  EXPECT_EQ(problems[1],
            "conv.yaml: spec.conversions[0].rules[1].field: Invalid value: \".spec.firstName.x\": "
            "expected field \"spec.firstName\" to be an object");
  EXPECT_NE(problems[2].find("rules[2].field: Internal error: error creating CEL environment"),
            std::string::npos)
      << problems[2];
  EXPECT_EQ(problems[3],
            "conv.yaml: spec.conversions[1].from: Invalid value: \"v9\": unable to find "
            "structural schema for version");
}

TEST(ApiConversion, ValidationFollowsTheApiConversionCrd) {
  json object = {{"apiVersion", "apis.kcp.io/v1alpha1"},
                 {"kind", "APIConversion"},
                 {"metadata", {{"name", "w"}}},
                 {"spec", json::parse(R"js({"conversions": [
                    {"from": "1", "to": "v2", "rules": [{"field": ".a"}]},
                    {"from": "v2", "to": "v1beta1", "rules": [
                       {"field": ".a", "destination": ".b"}, {"field": ".c", "destination": ".b"}]},
                    {"from": "v2", "to": "v1beta1", "rules": []}]})js")}};
  auto d = decodeApiConversion(object, "conv.yaml");
  ASSERT_TRUE(std::holds_alternative<std::vector<std::string>>(d));
  const auto& errors = std::get<std::vector<std::string>>(d);
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_EQ(
      errors[0],
      "conv.yaml: spec.conversions[0].from: Invalid value: \"1\": spec.conversions[0].from in "
      "body should match '^v[1-9][0-9]*([a-z]+[1-9][0-9]*)?$'");
  EXPECT_EQ(errors[1], "conv.yaml: spec.conversions[0].rules[0].destination: Required value");
  EXPECT_NE(errors[2].find("spec.conversions[1].rules[1]: Duplicate value"), std::string::npos);
  EXPECT_NE(errors[3].find("spec.conversions[2]: Duplicate value"), std::string::npos);
}

}  // namespace
}  // namespace convcheck::kcp
