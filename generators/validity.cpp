#include "generators/validity.h"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "generators/metadata_check.h"
#include "generators/validation_rules.h"
#include "kube/names/field_errors.h"

namespace convcheck {

using nlohmann::json;

namespace {

json typeOf(const SchemaNode& n) {
  json types = json::array();
  if (n.intOrString) {
    types.push_back("integer");
    types.push_back("string");
  } else if (n.type != SchemaType::None) {
    types.push_back(schemaTypeName(n.type));
  } else {
    return json();
  }
  if (n.nullable) types.push_back("null");
  return types.size() == 1 ? types[0] : types;
}

// One step of the path to a value: a key, or an index when `key` is null.
struct PathStep {
  const std::string* key;
  std::size_t index;
};

std::string pathOf(const std::vector<PathStep>& steps) {
  std::string p;
  for (const auto& s : steps) p = s.key ? childPath(p, *s.key) : indexPath(p, s.index);
  return p;
}

// Walks value and schema together and checks the metadata of embedded resources. The path is
// spelled out only where an embedded resource's metadata is checked.
void checkEmbeddedMetadata(const SchemaNode& n, const json& v, std::vector<PathStep>& at,
                           std::vector<Violation>& out) {
  if (v.is_object()) {
    if (n.embeddedResource)
      if (auto md = v.find("metadata"); md != v.end())
        checkObjectMeta(*md, MetadataRules{true, true}, childPath(pathOf(at), "metadata"), out);
    for (auto it = v.begin(); it != v.end(); ++it) {
      const SchemaNode* c = n.property(it.key());
      if (!c && n.additionalProperties) c = n.additionalProperties.get();
      if (!c) continue;
      at.push_back({&it.key(), 0});
      checkEmbeddedMetadata(*c, it.value(), at, out);
      at.pop_back();
    }
  } else if (v.is_array() && n.items) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      at.push_back({nullptr, i});
      checkEmbeddedMetadata(*n.items, v[i], at, out);
      at.pop_back();
    }
  }
}

std::string contextPath(const std::vector<std::string>& context) {
  std::string p;
  for (std::size_t i = 1; i < context.size(); ++i) {  // context[0] is "<root>"
    const std::string& c = context[i];
    if (c.size() >= 2 && c.front() == '[' && c.back() == ']') {
      std::string inner = c.substr(1, c.size() - 2);
      if (!inner.empty() && inner.front() == '"') inner = inner.substr(1, inner.size() - 2);
      const bool index =
          !inner.empty() && inner.find_first_not_of("0123456789") == std::string::npos;
      p = index ? p + "[" + inner + "]" : childPath(p, inner);
    } else {
      p = childPath(p, c);
    }
  }
  return p;
}

// valijson's error at `path` in kube-apiserver's words, or "" for a line that only repeats a
// child's failure on its parent ("Failed to validate against schema associated with property name
// 'x'"). valijson names a missing required field at its parent.
Violation fromValijson(const std::string& path, const std::string& description) {
  static const std::string missing = "Missing required property '";
  if (description.rfind("Failed to validate", 0) == 0) return {};
  if (description.rfind(missing, 0) == 0) {
    std::string field = description.substr(missing.size());
    while (!field.empty() && (field.back() == '.' || field.back() == '\'')) field.pop_back();
    return {childPath(path, field), requiredValue()};
  }
  return {path, "Invalid value: " + description};
}

}  // namespace

json toValijsonSchema(const SchemaNode& n, bool resourceRoot) {
  json s = json::object();
  if (json t = typeOf(n); !t.is_null()) s["type"] = t;
  if (n.enumValues) s["enum"] = *n.enumValues;
  if (!n.required.empty()) s["required"] = n.required;
  const bool resource = resourceRoot || n.embeddedResource;
  if (n.hasProperties || resource) {
    json props = json::object();
    for (const auto& [k, c] : n.properties) {
      if (resource && k == "metadata") {
        props[k] = {{"type", "object"}};  // ObjectMeta rules are checked by metadata_check
        continue;
      }
      props[k] = toValijsonSchema(*c, false);
    }
    if (resource) {
      if (!props.contains("apiVersion")) props["apiVersion"] = {{"type", "string"}};
      if (!props.contains("kind")) props["kind"] = {{"type", "string"}};
      if (!props.contains("metadata")) props["metadata"] = {{"type", "object"}};
    }
    s["properties"] = std::move(props);
  }
  if (n.additionalProperties) {
    s["additionalProperties"] = toValijsonSchema(*n.additionalProperties, false);
  } else if (n.additionalPropertiesBool) {
    s["additionalProperties"] = *n.additionalPropertiesBool;
  } else if (!n.valueValidation && !n.preserveUnknownFields &&
             (n.type == SchemaType::Object || n.hasProperties)) {
    s["additionalProperties"] = false;  // unknown fields would be pruned
  }
  if (n.items) s["items"] = toValijsonSchema(*n.items, false);
  if (n.minLength) s["minLength"] = *n.minLength;
  if (n.maxLength) s["maxLength"] = *n.maxLength;
  if (n.minItems) s["minItems"] = *n.minItems;
  if (n.maxItems) s["maxItems"] = *n.maxItems;
  if (n.minProperties) s["minProperties"] = *n.minProperties;
  if (n.maxProperties) s["maxProperties"] = *n.maxProperties;
  if (n.minimum) {
    s["minimum"] = *n.minimum;
    if (n.exclusiveMinimum) s["exclusiveMinimum"] = true;
  }
  if (n.maximum) {
    s["maximum"] = *n.maximum;
    if (n.exclusiveMaximum) s["exclusiveMaximum"] = true;
  }
  if (n.multipleOf) s["multipleOf"] = *n.multipleOf;
  if (n.uniqueItems) s["uniqueItems"] = true;
  auto branches = [](const std::vector<SchemaNodePtr>& bs) {
    json a = json::array();
    for (const auto& b : bs) a.push_back(toValijsonSchema(*b, false));
    return a;
  };
  if (!n.allOf.empty()) s["allOf"] = branches(n.allOf);
  if (!n.anyOf.empty()) s["anyOf"] = branches(n.anyOf);
  if (!n.oneOf.empty()) s["oneOf"] = branches(n.oneOf);
  if (n.notSchema) s["not"] = toValijsonSchema(*n.notSchema, false);
  // pattern (std::regex is not RE2) and format (valijson knows few) are checked natively.
  return s;
}

struct ValidityChecker::State {
  ParsedSchema schema;
  valijson::Schema valijson;  // holds copies of what it needs: the translation is not kept
  std::string apiVersion, kind;
  bool namespaced = true;
  std::shared_ptr<const ValidationRules> rules;  // x-kubernetes-validations (null: none)
};

std::variant<ValidityChecker, std::string> ValidityChecker::compile(const Crd& crd,
                                                                    const std::string& version) {
  const CrdVersion* v = crd.version(version);
  if (!v) return crd.name + " version " + version + ": no such version in the CRD";
  json schema = v->schema.is_null()
                    ? json{{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}
                    : v->schema;
  auto parsed = parseSchema(schema);
  if (auto* errors = std::get_if<std::vector<SchemaError>>(&parsed)) {
    std::string msg = crd.name + " version " + version + ": schema is not structural:";
    for (const auto& e : *errors) msg += "\n  " + e.str();
    return msg;
  }
  return compile(crd, version, std::get<ParsedSchema>(parsed));
}

std::variant<ValidityChecker, std::string> ValidityChecker::compile(const Crd& crd,
                                                                    const std::string& version,
                                                                    const ParsedSchema& parsed) {
  if (!parsed.root) return crd.name + " version " + version + ": no schema model";
  auto st = std::make_shared<State>();
  st->schema = parsed;  // shares the nodes
  const json translated = toValijsonSchema(*st->schema.root, true);
  st->apiVersion = crd.group.empty() ? version : crd.apiVersion(version);
  st->kind = crd.kind;
  st->namespaced = crd.namespaced;
  if (parsed.celRules > 0)
    if (const CrdVersion* v = crd.version(version))
      st->rules = std::make_shared<const ValidationRules>(v->schema);
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft4);
    valijson::adapters::NlohmannJsonAdapter adapter(translated);
    parser.populateSchema(adapter, st->valijson);
  } catch (const std::exception& e) {
    return crd.name + " version " + version +
           ": valijson rejects the translated schema: " + e.what();
  }
  return ValidityChecker(st);
}

const ParsedSchema& ValidityChecker::schema() const { return state_->schema; }

json ValidityChecker::valijsonSchema() const {
  return toValijsonSchema(*state_->schema.root, true);
}

std::vector<Violation> ValidityChecker::check(const json& object) const {
  return checkObject(object, true);
}

std::vector<Violation> ValidityChecker::checkNative(const json& object) const {
  return checkObject(object, false);
}

std::vector<Violation> ValidityChecker::checkObject(const json& object, bool valijson) const {
  std::vector<Violation> out;
  const State& st = *state_;
  if (!object.is_object()) return {{"", "must be an object"}};
  if (object.value("apiVersion", json()) != st.apiVersion)
    out.push_back({"apiVersion",
                   invalidValue(object.value("apiVersion", json()), "must be " + st.apiVersion)});
  if (object.value("kind", json()) != st.kind)
    out.push_back({"kind", invalidValue(object.value("kind", json()), "must be " + st.kind)});
  const auto md = object.find("metadata");
  if (md == object.end()) {
    out.push_back({"metadata", requiredValue()});
  } else {
    checkObjectMeta(*md, MetadataRules{st.namespaced, false}, "metadata", out);
    // The root schema may restrict metadata.name and metadata.generateName.
    if (const SchemaNode* mds = st.schema.root->property("metadata"); mds && md->is_object())
      for (const auto& [field, node] : mds->properties)
        if (auto v = md->find(field); v != md->end())
          checkValue(*node, *v, "metadata." + field, &out);
  }

  // Paths are spelled out only for objects that have violations.
  const bool schemaHolds =
      checkValue(*st.schema.root, object, "", nullptr, CheckOptions{true, true});
  if (!schemaHolds) checkValue(*st.schema.root, object, "", &out, CheckOptions{true, true});
  std::vector<PathStep> at;
  checkEmbeddedMetadata(*st.schema.root, object, at, out);
  // valijson is the second opinion: its words are said only where convcheck's own checks found the
  // object's schema held (one line per violation, never a violation twice).
  if (valijson && schemaHolds) {
    valijson::Validator validator(valijson::Validator::kStrongTypes);
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter target(object);
    if (!validator.validate(st.valijson, target, &results)) {
      valijson::ValidationResults::Error e;
      while (results.popError(e))
        if (Violation v = fromValijson(contextPath(e.context), e.description); !v.message.empty())
          out.push_back(std::move(v));
    }
  }
  // What kube-apiserver's validation rules say on create (only of an object that is otherwise
  // valid: a rule over a field of the wrong type says nothing kube-apiserver would say).
  if (st.rules && out.empty())
    for (auto& v : st.rules->violations(object)) out.push_back(std::move(v));
  return out;
}

}  // namespace convcheck
