// Reading the example CRDs as JSON and validating objects against a version's openAPIV3Schema
// (JSON Schema subset, with valijson). Used by tests/examples.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace convcheck::example::testing_support {

// The first YAML document of `path` as JSON; plain scalars become numbers/booleans/null where
// they parse as such, quoted scalars stay strings.
nlohmann::json loadYamlAsJson(const std::string& path);

// spec.versions[name].schema.openAPIV3Schema, or null.
nlohmann::json versionSchema(const nlohmann::json& crd, const std::string& version);

// Validates objects against one schema; parses the schema once.
class SchemaValidator {
 public:
  explicit SchemaValidator(const nlohmann::json& schema);
  ~SchemaValidator();
  // "" when `object` is valid, else the errors, one per line with their JSON path.
  std::string errors(const nlohmann::json& object) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace convcheck::example::testing_support
