// The parts of a structural schema (openAPIV3Schema) that CEL reads: types and formats for the
// values a rule sees, list types for equality, the size limits behind cost estimation, and the
// x-kubernetes-validations rules at each node. Built from the schema's JSON by kube/cel only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck::cel {

// One x-kubernetes-validations entry, as written.
struct RuleSpec {
  std::string rule;
  std::string message;
  std::string messageExpression;
  std::string reason;     // FieldValueInvalid (default), FieldValueForbidden, …
  std::string fieldPath;  // e.g. ".spec.x"; "" when absent
  bool optionalOldSelf = false;
};

struct CelSchema {
  std::string type;    // "object", "array", "string", "integer", "number", "boolean" or ""
  std::string format;  // as written
  bool intOrString = false;
  bool preserveUnknownFields = false;
  bool embeddedResource = false;
  bool nullable = false;
  bool hasDefault = false;
  std::map<std::string, std::unique_ptr<CelSchema>> properties;
  std::unique_ptr<CelSchema> items;
  std::unique_ptr<CelSchema> additionalProperties;
  std::optional<std::int64_t> maxLength, maxItems, maxProperties;
  std::vector<std::string> required;
  std::vector<nlohmann::json> enumValues;
  std::string listType;
  std::vector<std::string> listMapKeys;
  std::vector<RuleSpec> rules;

  const CelSchema* property(const std::string& name) const {
    auto it = properties.find(name);
    return it == properties.end() ? nullptr : it->second.get();
  }
  bool isObjectWithFields() const { return !properties.empty() || embeddedResource; }
};

// The schema tree of an openAPIV3Schema; the root (and embedded resources) get apiVersion, kind
// and metadata.name/generateName as Kubernetes adds them for rules.
std::unique_ptr<CelSchema> buildCelSchema(const nlohmann::json& openAPIV3Schema);

// Property names as CEL sees them: "namespace" is __namespace__, "a.b" is a__dot__b, … (the
// Kubernetes escaping); nullopt for a name that cannot be escaped.
std::optional<std::string> escapePropertyName(const std::string& name);
std::string unescapePropertyName(const std::string& name);

}  // namespace convcheck::cel
