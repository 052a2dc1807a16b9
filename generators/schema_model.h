// The openAPIV3Schema of one CRD version as a tree of typed nodes, checked to be structural.
// Built by ObjectGenerator and validity checks; read by schema_gen, schema_check and validity.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace re2 {
class RE2;
}

namespace convcheck {

enum class SchemaType { None, Object, Array, String, Integer, Number, Boolean };
const char* schemaTypeName(SchemaType t);  // "object", …, "" for None

struct SchemaNode;
using SchemaNodePtr = std::shared_ptr<const SchemaNode>;

// One JSONSchemaProps object. Structural nodes describe fields; nodes under allOf/anyOf/oneOf/not
// (valueValidation == true) only constrain values of the structural node they hang from.
struct SchemaNode {
  std::string schemaPath;  // e.g. "properties[spec].properties[ports].items"; "" at the root
  bool valueValidation = false;

  SchemaType type = SchemaType::None;
  bool nullable = false;
  std::string format;  // as written ("date-time"); "" when absent
  std::optional<std::vector<nlohmann::json>> enumValues;
  std::optional<nlohmann::json> defaultValue;

  std::vector<std::string> required;
  std::map<std::string, SchemaNodePtr> properties;
  bool hasProperties = false;                    // `properties` key present (possibly empty)
  SchemaNodePtr additionalProperties;            // `additionalProperties: {schema}`
  std::optional<bool> additionalPropertiesBool;  // `additionalProperties: true|false`
  std::optional<std::uint64_t> minProperties, maxProperties;

  SchemaNodePtr items;
  std::optional<std::uint64_t> minItems, maxItems;
  bool uniqueItems = false;

  std::optional<std::uint64_t> minLength, maxLength;  // in Unicode code points, as kube-openapi
  std::optional<std::string> pattern;                 // Go RE2 syntax, matched unanchored
  std::shared_ptr<const re2::RE2> patternRe;          // compiled `pattern`

  std::optional<double> minimum, maximum, multipleOf;
  bool exclusiveMinimum = false, exclusiveMaximum = false;

  std::vector<SchemaNodePtr> allOf, anyOf, oneOf;
  SchemaNodePtr notSchema;

  bool intOrString = false;            // x-kubernetes-int-or-string
  bool preserveUnknownFields = false;  // x-kubernetes-preserve-unknown-fields
  bool embeddedResource = false;       // x-kubernetes-embedded-resource
  std::string listType;                // x-kubernetes-list-type: "", atomic, set, map
  std::vector<std::string> listMapKeys;
  std::string mapType;  // x-kubernetes-map-type: "", atomic, granular
  int celRules = 0;     // x-kubernetes-validations at this node (counted, never evaluated)

  // Generator steering, filled only by schema_gen when it folds a combinator branch into a node:
  // properties that must stay absent and values that must not be produced.
  std::vector<std::string> forbiddenProperties;
  std::vector<nlohmann::json> excludedValues;

  const SchemaNode* property(const std::string& name) const;
  bool hasCombinators() const {
    return !allOf.empty() || !anyOf.empty() || !oneOf.empty() || notSchema;
  }
  bool isRequired(const std::string& name) const;
};

// A schema problem: where (schema path), which keyword, and what is wrong.
struct SchemaError {
  std::string path;     // e.g. "properties[spec].properties[x]"
  std::string keyword;  // e.g. "type", "$ref"
  std::string message;
  std::string str() const;  // "openAPIV3Schema.properties[spec].type: must not be empty …"
};

// A parsed version schema plus what the parser noticed (and the generator must say).
struct ParsedSchema {
  SchemaNodePtr root;
  int celRules = 0;                // x-kubernetes-validations rules in the whole tree
  std::vector<std::string> notes;  // e.g. unknown formats that kube-apiserver ignores
  std::size_t nodeCount = 0;
};

// Parses `schema` (an openAPIV3Schema) and checks the structural-schema rules of
// apiextensions-apiserver (type present, no properties next to additionalProperties, nothing but
// value validations under allOf/anyOf/oneOf/not, no $ref/patternProperties/…, metadata
// restrictions). Returns every error found, each with its schema path and keyword.
std::variant<ParsedSchema, std::vector<SchemaError>> parseSchema(const nlohmann::json& schema);

}  // namespace convcheck
