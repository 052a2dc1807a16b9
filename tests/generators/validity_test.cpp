// ValidityChecker: a valid stored object passes, and each kind of invalid object is caught with the
// path of the offending field (valijson for the translated schema, native checks for RE2
// patterns, formats, list types, unknown fields and metadata).
#include <gtest/gtest.h>

#include "generators/validity.h"
#include "tests/generators/gen_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;

const json kSchema = {
    {"type", "object"},
    {"properties",
     {{"apiVersion", {{"type", "string"}}},
      {"kind", {{"type", "string"}}},
      {"metadata", {{"type", "object"}}},
      {"spec",
       {{"type", "object"},
        {"required", {"name"}},
        {"properties",
         {{"name", {{"type", "string"}, {"pattern", "^[a-z]+(?i)X?$"}, {"maxLength", 10}}},
          {"when", {{"type", "string"}, {"format", "date-time"}}},
          {"count", {{"type", "integer"}, {"minimum", 0}, {"nullable", true}}},
          {"port", {{"x-kubernetes-int-or-string", true}}},
          {"tags",
           {{"type", "array"}, {"x-kubernetes-list-type", "set"}, {"items", {{"type", "string"}}}}},
          {"ports",
           {{"type", "array"},
            {"x-kubernetes-list-type", "map"},
            {"x-kubernetes-list-map-keys", {"name"}},
            {"items",
             {{"type", "object"},
              {"required", {"name"}},
              {"properties", {{"name", {{"type", "string"}}}}}}}}},
          {"free", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}},
          {"template",
           {{"type", "object"},
            {"x-kubernetes-embedded-resource", true},
            {"x-kubernetes-preserve-unknown-fields", true}}},
          {"choice",
           {{"type", "object"},
            {"properties", {{"a", {{"type", "string"}}}, {"b", {{"type", "string"}}}}},
            {"oneOf", {{{"required", {"a"}}}, {{"required", {"b"}}}}}}}}}}},
      {"status", {{"type", "object"}, {"properties", {{"ready", {{"type", "boolean"}}}}}}}}}};

json validObject() {
  return {
      {"apiVersion", "example.com/v1"},
      {"kind", "Widget"},
      {"metadata",
       {{"name", "w-1"},
        {"namespace", "default"},
        {"uid", "6f1c0c3e-1a2b-4c3d-8e4f-5a6b7c8d9e0f"},
        {"creationTimestamp", "2024-01-02T03:04:05Z"},
        {"generation", 1},
        {"labels", {{"app", "web"}}}}},
      {"spec",
       {{"name", "abcx"},
        {"when", "2024-01-02T03:04:05.5+01:00"},
        {"count", nullptr},
        {"port", "http"},
        {"tags", {"a", "b"}},
        {"ports", {{{"name", "x"}}, {{"name", "y"}}}},
        {"free", {{"anything", {{"goes", {1, 2.5, nullptr}}}}}},
        {"template", {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "cm"}}}}},
        {"choice", {{"a", "x"}}}}},
      {"status", {{"ready", true}}}};
}

class ValidityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = ValidityChecker::compile(testing::crdWithSchema(kSchema), "v1");
    ASSERT_TRUE(std::holds_alternative<ValidityChecker>(c)) << std::get<std::string>(c);
    checker_ = std::make_unique<ValidityChecker>(std::get<ValidityChecker>(c));
  }

  // True when some violation is reported at `path`, by check and by checkNative alike (the
  // generate command checks most objects natively only).
  bool flags(const json& object, const std::string& path) {
    bool both = true;
    for (bool native : {false, true}) {
      const auto found = native ? checker_->checkNative(object) : checker_->check(object);
      bool at = false;
      for (const auto& v : found) at = at || v.path == path;
      if (at) continue;
      std::string all;
      for (const auto& v : found) all += "\n  " + v.path + ": " + v.message;
      ADD_FAILURE() << (native ? "checkNative" : "check") << ": no violation at " << path
                    << "; got:" << all;
      both = false;
    }
    return both;
  }

  std::unique_ptr<ValidityChecker> checker_;
};

TEST_F(ValidityTest, AcceptsAValidStoredObject) {
  const auto v = checker_->check(validObject());
  EXPECT_TRUE(v.empty()) << v.front().path << ": " << v.front().message;
  EXPECT_TRUE(checker_->checkNative(validObject()).empty());
}

TEST_F(ValidityTest, FlagsAPatternMismatchUnderRe2Semantics) {
  json o = validObject();
  o["spec"]["name"] = "abc1";
  EXPECT_TRUE(flags(o, "spec.name"));
}

TEST_F(ValidityTest, MatchesPatternsUnanchoredWithInlineFlags) {
  json o = validObject();
  o["spec"]["name"] = "abcX";  // (?i) mid-pattern, which std::regex cannot even parse
  EXPECT_TRUE(checker_->check(o).empty());
}

TEST_F(ValidityTest, FlagsUnknownFieldsThatKubeApiserverWouldPrune) {
  json o = validObject();
  o["spec"]["surprise"] = 1;
  EXPECT_TRUE(flags(o, "spec.surprise"));
}

TEST_F(ValidityTest, KeepsUnknownFieldsUnderPreserveUnknownFields) {
  json o = validObject();
  o["spec"]["free"]["more"] = {{"x", nullptr}};
  EXPECT_TRUE(checker_->check(o).empty());
}

TEST_F(ValidityTest, FlagsWrongTypes) {
  json o = validObject();
  o["spec"]["tags"] = "not-a-list";
  EXPECT_TRUE(flags(o, "spec.tags"));
}

TEST_F(ValidityTest, FlagsNullInANonNullableFieldButNotInANullableOne) {
  json o = validObject();
  o["spec"]["when"] = nullptr;
  EXPECT_TRUE(flags(o, "spec.when"));
}

TEST_F(ValidityTest, FlagsIntOrStringValuesOfOtherTypes) {
  json o = validObject();
  o["spec"]["port"] = true;
  EXPECT_TRUE(flags(o, "spec.port"));
}

TEST_F(ValidityTest, FlagsInvalidFormats) {
  json o = validObject();
  o["spec"]["when"] = "yesterday";
  EXPECT_TRUE(flags(o, "spec.when"));
}

TEST_F(ValidityTest, FlagsDuplicateSetItemsAndMapKeys) {
  json o = validObject();
  o["spec"]["tags"] = {"a", "a"};
  EXPECT_TRUE(flags(o, "spec.tags[1]"));
  o = validObject();
  o["spec"]["ports"] = {{{"name", "x"}}, {{"name", "x"}}};
  EXPECT_TRUE(flags(o, "spec.ports[1]"));
}

TEST_F(ValidityTest, FlagsMissingRequiredFields) {
  json o = validObject();
  o["spec"].erase("name");
  EXPECT_TRUE(flags(o, "spec.name"));
}

TEST_F(ValidityTest, FlagsOneOfViolations) {
  json o = validObject();
  o["spec"]["choice"] = {{"a", "x"}, {"b", "y"}};
  EXPECT_TRUE(flags(o, "spec.choice"));
}

TEST_F(ValidityTest, FlagsEmbeddedResourcesWithoutKind) {
  json o = validObject();
  o["spec"]["template"].erase("kind");
  EXPECT_TRUE(flags(o, "spec.template.kind"));
}

TEST_F(ValidityTest, FlagsBadEmbeddedMetadata) {
  json o = validObject();
  o["spec"]["template"]["metadata"]["labels"] = {{"bad key!", "v"}};
  EXPECT_TRUE(flags(o, "spec.template.metadata.labels[bad key!]"));
}

TEST_F(ValidityTest, FlagsIntegralFloatsInIntegerFields) {
  json o = validObject();
  o["spec"]["count"] = 5.0;
  EXPECT_TRUE(flags(o, "spec.count"));
}

TEST_F(ValidityTest, FlagsWrongApiVersionAndKind) {
  json o = validObject();
  o["apiVersion"] = "example.com/v2";
  o["kind"] = "Gadget";
  EXPECT_TRUE(flags(o, "apiVersion"));
  EXPECT_TRUE(flags(o, "kind"));
}

TEST_F(ValidityTest, FlagsMetadataAsKubeApiserverWouldStoreIt) {
  json o = validObject();
  o["metadata"]["name"] = "Not_A_Name";
  EXPECT_TRUE(flags(o, "metadata.name"));
  o = validObject();
  o["metadata"]["labels"] = json::object();
  EXPECT_TRUE(flags(o, "metadata.labels"));
  o = validObject();
  o["metadata"]["labels"] = {{"app", std::string(64, 'a')}};
  EXPECT_TRUE(flags(o, "metadata.labels.app"));
  o = validObject();
  o["metadata"].erase("namespace");
  EXPECT_TRUE(flags(o, "metadata.namespace"));
  o = validObject();
  o["metadata"]["generation"] = 0;
  EXPECT_TRUE(flags(o, "metadata.generation"));
  o = validObject();
  o["metadata"]["creationTimestamp"] = "2024-01-02T03:04:05.123Z";
  EXPECT_TRUE(flags(o, "metadata.creationTimestamp"));
}

// Every violation is one line in kube-apiserver's words; valijson's lines (and its repetition of a
// violation on every parent) never show.
TEST_F(ValidityTest, ViolationsReadAsKubeApiserverSaysThemOneLineEach) {
  auto messages = [&](const json& o) {
    std::vector<std::string> out;
    for (const auto& v : checker_->check(o)) out.push_back(v.path + ": " + v.message);
    return out;
  };
  json o = validObject();
  o["spec"]["name"] = "abcdefghijkl";  // 12 characters, and no lower-case-only match either
  o["spec"].erase("when");
  EXPECT_EQ(messages(o),
            (std::vector<std::string>{"spec.name: Too long: may not be longer than 10"}));
  o = validObject();
  o["spec"].erase("name");
  EXPECT_EQ(messages(o), std::vector<std::string>{"spec.name: Required value"});
  o = validObject();
  o["spec"]["name"] = "ab1";
  EXPECT_EQ(messages(o), std::vector<std::string>{"spec.name: Invalid value: \"ab1\": spec.name in "
                                                  "body should match '^[a-z]+(?i)X?$'"});
  o = validObject();
  o["spec"]["tags"] = "a";
  EXPECT_EQ(messages(o), std::vector<std::string>{"spec.tags: Invalid value: \"string\": spec.tags "
                                                  "in body must be of type array: \"string\""});
  o = validObject();
  o["spec"]["count"] = -1;
  EXPECT_EQ(messages(o),
            std::vector<std::string>{"spec.count: Invalid value: -1: spec.count in body "
                                     "should be greater than or equal to 0"});
  o = validObject();
  o["spec"]["when"] = "yesterday";
  EXPECT_EQ(messages(o), std::vector<std::string>{"spec.when: Invalid value: \"yesterday\": "
                                                  "spec.when in body must be of type date-time: "
                                                  "\"yesterday\""});
  o = validObject();
  o["spec"]["tags"] = {"a", "a"};
  EXPECT_EQ(messages(o), std::vector<std::string>{"spec.tags[1]: Duplicate value: \"a\""});
  o = validObject();
  o["spec"]["choice"] = {{"a", "x"}, {"b", "y"}};
  EXPECT_EQ(messages(o), std::vector<std::string>{
                             "spec.choice: Invalid value: \"\": \"spec.choice\" must validate one "
                             "and only one schema (oneOf). Found 2 alternatives"});
  for (const auto& m : messages(o)) EXPECT_EQ(m.find("valijson"), std::string::npos) << m;
}

TEST(Validity, AnEnumViolationListsTheSupportedValues) {
  json schema = kSchema;
  schema["properties"]["spec"]["properties"]["mode"] = {{"type", "string"},
                                                        {"enum", {"Fast", "Slow"}}};
  auto c = ValidityChecker::compile(testing::crdWithSchema(schema), "v1");
  ASSERT_TRUE(std::holds_alternative<ValidityChecker>(c));
  json o = validObject();
  o["spec"]["mode"] = "Medium";
  const auto v = std::get<ValidityChecker>(c).check(o);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].path, "spec.mode");
  EXPECT_EQ(v[0].message, "Unsupported value: \"Medium\": supported values: \"Fast\", \"Slow\"");
}

TEST_F(ValidityTest, ValijsonGetsNullableIntOrStringAndNoPatternOrFormat) {
  const json s = checker_->valijsonSchema();
  const json& spec = s["properties"]["spec"]["properties"];
  EXPECT_EQ(spec["count"]["type"], json({"integer", "null"}));
  EXPECT_EQ(spec["port"]["type"], json({"integer", "string"}));
  EXPECT_FALSE(spec["name"].contains("pattern"));
  EXPECT_FALSE(spec["when"].contains("format"));
  EXPECT_EQ(s["properties"]["spec"]["additionalProperties"], false);
  EXPECT_FALSE(spec["free"].contains("additionalProperties"));
}

TEST(Validity, CompileRefusesNonStructuralSchemasNamingThePath) {
  auto c = ValidityChecker::compile(
      testing::crdWithSchema({{"type", "object"}, {"properties", {{"x", json::object()}}}}), "v1");
  ASSERT_TRUE(std::holds_alternative<std::string>(c));
  EXPECT_NE(std::get<std::string>(c).find("properties[x].type"), std::string::npos)
      << std::get<std::string>(c);
}

TEST(Validity, ClusterScopedObjectsMustNotHaveANamespace) {
  auto c = ValidityChecker::compile(testing::crdWithSchema(kSchema, false), "v1");
  ASSERT_TRUE(std::holds_alternative<ValidityChecker>(c));
  json o = validObject();
  bool flagged = false;
  for (const auto& v : std::get<ValidityChecker>(c).check(o))
    flagged = flagged || v.path == "metadata.namespace";
  EXPECT_TRUE(flagged);
  o["metadata"].erase("namespace");
  EXPECT_TRUE(std::get<ValidityChecker>(c).check(o).empty());
}

TEST(Validity, RootMetadataNameRestrictionsApply) {
  json schema = kSchema;
  schema["properties"]["metadata"] = {
      {"type", "object"}, {"properties", {{"name", {{"type", "string"}, {"maxLength", 3}}}}}};
  auto c = ValidityChecker::compile(testing::crdWithSchema(schema), "v1");
  ASSERT_TRUE(std::holds_alternative<ValidityChecker>(c));
  bool flagged = false;
  for (const auto& v : std::get<ValidityChecker>(c).check(validObject()))  // name "w-1" fits
    flagged = flagged || v.path == "metadata.name";
  EXPECT_FALSE(flagged);
  json o = validObject();
  o["metadata"]["name"] = "long-name";
  for (const auto& v : std::get<ValidityChecker>(c).check(o))
    flagged = flagged || v.path == "metadata.name";
  EXPECT_TRUE(flagged);
}

}  // namespace
}  // namespace convcheck
