#include "tests/examples/crd_schema.h"

#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include <yaml-cpp/yaml.h>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

namespace convcheck::example::testing_support {
namespace {

using nlohmann::json;

json scalarToJson(const YAML::Node& node) {
  const std::string text = node.Scalar();
  if (node.Tag() == "!") return text;  // quoted
  if (text == "true") return true;
  if (text == "false") return false;
  if (text == "null" || text == "~") return nullptr;
  char* end = nullptr;
  long long integer = std::strtoll(text.c_str(), &end, 10);
  if (!text.empty() && *end == '\0') return integer;
  double real = std::strtod(text.c_str(), &end);
  if (!text.empty() && *end == '\0') return real;
  return text;
}

json toJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      json object = json::object();
      for (const auto& entry : node) object[entry.first.Scalar()] = toJson(entry.second);
      return object;
    }
    case YAML::NodeType::Sequence: {
      json array = json::array();
      for (const auto& item : node) array.push_back(toJson(item));
      return array;
    }
    case YAML::NodeType::Scalar:
      return scalarToJson(node);
    default:
      return nullptr;
  }
}

}  // namespace

json loadYamlAsJson(const std::string& path) { return toJson(YAML::LoadFile(path)); }

json versionSchema(const json& crd, const std::string& version) {
  for (const auto& v : crd["spec"]["versions"])
    if (v["name"] == version) return v["schema"]["openAPIV3Schema"];
  return nullptr;
}

struct SchemaValidator::Impl {
  valijson::Schema schema;
};

SchemaValidator::SchemaValidator(const json& schema) : impl_(std::make_unique<Impl>()) {
  valijson::SchemaParser parser;
  valijson::adapters::NlohmannJsonAdapter adapter(schema);
  parser.populateSchema(adapter, impl_->schema);
}

SchemaValidator::~SchemaValidator() = default;

std::string SchemaValidator::errors(const json& object) const {
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(object);
  if (validator.validate(impl_->schema, target, &results)) return {};
  std::ostringstream text;
  for (const auto& error : results) {
    for (const auto& part : error.context) text << part;
    text << ": " << error.description << "\n";
  }
  return text.str();
}

}  // namespace convcheck::example::testing_support
