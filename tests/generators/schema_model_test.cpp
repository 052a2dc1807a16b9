// parseSchema: every keyword lands in the node tree, and non-structural schemas or unsupported
// keywords are refused with the schema path and the keyword.
#include <gtest/gtest.h>

#include "generators/schema_model.h"

namespace convcheck {
namespace {

using nlohmann::json;

ParsedSchema parsed(const json& schema) {
  auto r = parseSchema(schema);
  if (auto* e = std::get_if<std::vector<SchemaError>>(&r)) {
    std::string all;
    for (const auto& x : *e) all += x.str() + "\n";
    ADD_FAILURE() << all;
    return {};
  }
  return std::get<ParsedSchema>(r);
}

std::vector<SchemaError> errors(const json& schema) {
  auto r = parseSchema(schema);
  if (auto* e = std::get_if<std::vector<SchemaError>>(&r)) return *e;
  return {};
}

bool hasError(const json& schema, const std::string& path, const std::string& keyword) {
  for (const auto& e : errors(schema))
    if (e.path == path && e.keyword == keyword) return true;
  return false;
}

json obj(json props) { return {{"type", "object"}, {"properties", props}}; }

TEST(SchemaModel, ParsesEveryValueKeywordOfAStringField) {
  auto p = parsed(obj({{"s",
                        {{"type", "string"},
                         {"minLength", 2},
                         {"maxLength", 9},
                         {"pattern", "^a+$"},
                         {"format", "date-time"},
                         {"enum", {"aa", "aaa"}},
                         {"default", "aa"},
                         {"nullable", true}}}}));
  const SchemaNode* s = p.root->property("s");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->type, SchemaType::String);
  EXPECT_EQ(*s->minLength, 2u);
  EXPECT_EQ(*s->maxLength, 9u);
  EXPECT_EQ(*s->pattern, "^a+$");
  EXPECT_NE(s->patternRe, nullptr);
  EXPECT_EQ(s->format, "date-time");
  EXPECT_EQ(s->enumValues->size(), 2u);
  EXPECT_EQ(*s->defaultValue, "aa");
  EXPECT_TRUE(s->nullable);
  EXPECT_EQ(s->schemaPath, "properties[s]");
}

TEST(SchemaModel, ParsesNumericBoundsAndMultipleOf) {
  auto p = parsed(obj({{"n",
                        {{"type", "number"},
                         {"minimum", -1.5},
                         {"maximum", 10},
                         {"exclusiveMinimum", true},
                         {"exclusiveMaximum", true},
                         {"multipleOf", 0.5}}}}));
  const SchemaNode* n = p.root->property("n");
  EXPECT_EQ(*n->minimum, -1.5);
  EXPECT_EQ(*n->maximum, 10);
  EXPECT_TRUE(n->exclusiveMinimum);
  EXPECT_TRUE(n->exclusiveMaximum);
  EXPECT_EQ(*n->multipleOf, 0.5);
}

TEST(SchemaModel, ParsesArraysListTypesAndMaps) {
  auto p = parsed(obj({{"l",
                        {{"type", "array"},
                         {"minItems", 1},
                         {"maxItems", 3},
                         {"x-kubernetes-list-type", "map"},
                         {"x-kubernetes-list-map-keys", {"name"}},
                         {"items",
                          {{"type", "object"},
                           {"required", {"name"}},
                           {"properties", {{"name", {{"type", "string"}}}}}}}}},
                       {"m",
                        {{"type", "object"},
                         {"x-kubernetes-map-type", "granular"},
                         {"minProperties", 1},
                         {"additionalProperties", {{"type", "string"}}}}}}));
  const SchemaNode* l = p.root->property("l");
  EXPECT_EQ(l->listType, "map");
  EXPECT_EQ(l->listMapKeys, std::vector<std::string>{"name"});
  EXPECT_EQ(*l->minItems, 1u);
  ASSERT_NE(l->items, nullptr);
  EXPECT_TRUE(l->items->isRequired("name"));
  const SchemaNode* m = p.root->property("m");
  EXPECT_EQ(m->mapType, "granular");
  ASSERT_NE(m->additionalProperties, nullptr);
  EXPECT_EQ(m->additionalProperties->type, SchemaType::String);
}

TEST(SchemaModel, ParsesKubernetesExtensionsAndCountsCelRules) {
  auto p = parsed(obj({{"ios",
                        {{"x-kubernetes-int-or-string", true},
                         {"anyOf", {{{"type", "integer"}}, {{"type", "string"}}}}}},
                       {"any", {{"x-kubernetes-preserve-unknown-fields", true}}},
                       {"emb",
                        {{"type", "object"},
                         {"x-kubernetes-embedded-resource", true},
                         {"x-kubernetes-preserve-unknown-fields", true}}},
                       {"c",
                        {{"type", "string"},
                         {"x-kubernetes-validations",
                          {{{"rule", "self.size() > 1"}}, {{"rule", "self != 'x'"}}}}}}}));
  const SchemaNode* ios = p.root->property("ios");
  EXPECT_TRUE(ios->intOrString);
  ASSERT_EQ(ios->anyOf.size(), 2u);
  EXPECT_EQ(ios->anyOf[0]->type, SchemaType::Integer);
  EXPECT_TRUE(p.root->property("any")->preserveUnknownFields);
  EXPECT_TRUE(p.root->property("emb")->embeddedResource);
  EXPECT_EQ(p.celRules, 2);
}

TEST(SchemaModel, ParsesJunctorsAsValueValidations) {
  auto p =
      parsed({{"type", "object"},
              {"properties", {{"a", {{"type", "string"}}}, {"b", {{"type", "string"}}}}},
              {"oneOf", {{{"required", {"a"}}}, {{"required", {"b"}}}}},
              {"not", {{"required", {"a", "b"}}}},
              {"allOf", {{{"minProperties", 1}}}},
              {"anyOf", {{{"properties", {{"a", {{"enum", {"x"}}}}}}}, {{"required", {"b"}}}}}});
  EXPECT_EQ(p.root->oneOf.size(), 2u);
  EXPECT_TRUE(p.root->oneOf[0]->valueValidation);
  ASSERT_NE(p.root->notSchema, nullptr);
  EXPECT_EQ(p.root->allOf.size(), 1u);
  EXPECT_EQ(p.root->anyOf.size(), 2u);
  EXPECT_EQ(p.root->anyOf[0]->schemaPath, "anyOf[0]");
}

TEST(SchemaModel, RefusesAFieldWithoutType) {
  EXPECT_TRUE(hasError(obj({{"x", {{"description", "no type"}}}}), "properties[x]", "type"));
}

TEST(SchemaModel, RefusesARootThatIsNotAnObject) {
  EXPECT_TRUE(hasError({{"type", "string"}}, "", "type"));
}

TEST(SchemaModel, RefusesPropertiesNextToAdditionalProperties) {
  EXPECT_TRUE(hasError(obj({{"m",
                             {{"type", "object"},
                              {"properties", {{"a", {{"type", "string"}}}}},
                              {"additionalProperties", {{"type", "string"}}}}}}),
                       "properties[m]", "additionalProperties"));
}

TEST(SchemaModel, RefusesTypeInsideAllOf) {
  EXPECT_TRUE(
      hasError({{"type", "object"}, {"allOf", {{{"type", "object"}}}}}, "allOf[0]", "type"));
}

TEST(SchemaModel, RefusesDescriptionDefaultAndNullableInsideJunctors) {
  const json s = {{"type", "object"},
                  {"anyOf", {{{"description", "d"}}, {{"nullable", true}}, {{"default", 1}}}}};
  EXPECT_TRUE(hasError(s, "anyOf[0]", "description"));
  EXPECT_TRUE(hasError(s, "anyOf[1]", "nullable"));
  EXPECT_TRUE(hasError(s, "anyOf[2]", "default"));
}

TEST(SchemaModel, RefusesJunctorFieldsMissingFromTheStructuralSchema) {
  EXPECT_FALSE(errors({{"type", "object"},
                       {"properties", {{"a", {{"type", "string"}}}}},
                       {"anyOf", {{{"properties", {{"zzz", {{"minLength", 1}}}}}}}}})
                   .empty());
}

TEST(SchemaModel, RefusesRefAndPatternPropertiesNamingTheKeyword) {
  EXPECT_TRUE(hasError(obj({{"r", {{"$ref", "#/definitions/x"}}}}), "properties[r]", "$ref"));
  EXPECT_TRUE(hasError(obj({{"p", {{"type", "object"}, {"patternProperties", json::object()}}}}),
                       "properties[p]", "patternProperties"));
}

TEST(SchemaModel, RefusesUnknownKeywordsNamingTheKeyword) {
  auto e = errors(obj({{"x", {{"type", "string"}, {"minLenght", 3}}}}));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].keyword, "minLenght");
  EXPECT_EQ(e[0].str(), "openAPIV3Schema.properties[x].minLenght: unknown schema keyword");
}

TEST(SchemaModel, RefusesArraysWithoutItems) {
  EXPECT_TRUE(hasError(obj({{"a", {{"type", "array"}}}}), "properties[a]", "items"));
}

TEST(SchemaModel, RefusesListMapKeysThatAreNotRequired) {
  EXPECT_TRUE(hasError(
      obj({{"l",
            {{"type", "array"},
             {"x-kubernetes-list-type", "map"},
             {"x-kubernetes-list-map-keys", {"name"}},
             {"items", {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}}}}}}),
      "properties[l]", "x-kubernetes-list-map-keys"));
}

TEST(SchemaModel, RefusesInvalidPatterns) {
  EXPECT_TRUE(hasError(obj({{"s", {{"type", "string"}, {"pattern", "(unclosed"}}}}),
                       "properties[s]", "pattern"));
}

TEST(SchemaModel, RefusesRootMetadataRestrictionsBeyondNameAndGenerateName) {
  EXPECT_TRUE(hasError(
      obj({{"metadata", {{"type", "object"}, {"properties", {{"labels", {{"type", "object"}}}}}}}}),
      "properties[metadata]", "properties[labels]"));
  EXPECT_TRUE(errors(obj({{"metadata",
                           {{"type", "object"},
                            {"properties", {{"name", {{"type", "string"}, {"maxLength", 20}}}}}}}}))
                  .empty());
}

TEST(SchemaModel, RefusesEmbeddedResourcesThatAreNotObjects) {
  EXPECT_TRUE(hasError(obj({{"e", {{"type", "string"}, {"x-kubernetes-embedded-resource", true}}}}),
                       "properties[e]", "type"));
}

TEST(SchemaModel, AcceptsTypelessFieldsOnlyWithIntOrStringOrPreserveUnknownFields) {
  EXPECT_TRUE(errors(obj({{"a", {{"x-kubernetes-int-or-string", true}}},
                          {"b", {{"x-kubernetes-preserve-unknown-fields", true}}}}))
                  .empty());
}

TEST(SchemaModel, NotesUnknownFormatsAndUniqueItems) {
  auto p = parsed(
      obj({{"s", {{"type", "string"}, {"format", "int-or-string-ish"}}},
           {"l", {{"type", "array"}, {"uniqueItems", true}, {"items", {{"type", "string"}}}}}}));
  ASSERT_EQ(p.notes.size(), 2u);
  EXPECT_NE(p.notes[0].find("uniqueItems"), std::string::npos);
  EXPECT_NE(p.notes[1].find("int-or-string-ish"), std::string::npos);
}

TEST(SchemaModel, ReportsEveryErrorNotJustTheFirst) {
  EXPECT_EQ(errors(obj({{"a", json::object()}, {"b", {{"$ref", "x"}, {"type", "string"}}}})).size(),
            2u);
}

}  // namespace
}  // namespace convcheck
