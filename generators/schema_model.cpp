#include "generators/schema_model.h"

#include <algorithm>
#include <set>

#include <re2/re2.h>

#include "generators/format_check.h"

namespace convcheck {

using nlohmann::json;

const char* schemaTypeName(SchemaType t) {
  switch (t) {
    case SchemaType::Object:
      return "object";
    case SchemaType::Array:
      return "array";
    case SchemaType::String:
      return "string";
    case SchemaType::Integer:
      return "integer";
    case SchemaType::Number:
      return "number";
    case SchemaType::Boolean:
      return "boolean";
    case SchemaType::None:
      break;
  }
  return "";
}

const SchemaNode* SchemaNode::property(const std::string& name) const {
  auto it = properties.find(name);
  return it == properties.end() ? nullptr : it->second.get();
}

bool SchemaNode::isRequired(const std::string& name) const {
  return std::find(required.begin(), required.end(), name) != required.end();
}

std::string SchemaError::str() const {
  std::string where = "openAPIV3Schema";
  if (!path.empty()) where += "." + path;
  if (!keyword.empty()) where += "." + keyword;
  return where + ": " + message;
}

namespace {

enum class Level { Root, Item, Field };

std::string child(const std::string& path, const std::string& segment) {
  return path.empty() ? segment : path + "." + segment;
}

// Keywords that exist in JSONSchemaProps but kube-apiserver rejects in CRD schemas.
const std::set<std::string>& forbiddenKeywords() {
  static const std::set<std::string> k = {"$ref",
                                          "$schema",
                                          "id",
                                          "definitions",
                                          "dependencies",
                                          "additionalItems",
                                          "patternProperties"};
  return k;
}

bool isIntOrStringAnyOf(const json& anyOf) {
  return anyOf.is_array() && anyOf.size() == 2 && anyOf[0] == json{{"type", "integer"}} &&
         anyOf[1] == json{{"type", "string"}};
}

class Parser {
 public:
  std::vector<SchemaError> errors;
  std::vector<std::string> notes;
  int cel = 0;
  std::size_t nodes = 0;

  SchemaNodePtr parse(const json& j, const std::string& path, Level lvl, bool vv,
                      bool allowIntOrStringType) {
    ++nodes;
    auto n = std::make_shared<SchemaNode>();
    n->schemaPath = path;
    n->valueValidation = vv;
    if (!j.is_object()) {
      err(path, "", "must be a schema object, got " + std::string(j.type_name()));
      return n;
    }
    const bool saved = allowTypeHere_;
    allowTypeHere_ = allowIntOrStringType;
    for (const auto& [key, value] : j.items()) keyword(*n, key, value, path, lvl, vv, j);
    allowTypeHere_ = saved;
    if (!vv) structural(*n, path, lvl);
    return n;
  }

 private:
  std::map<std::string, std::shared_ptr<const re2::RE2>> patternCache_;

  void err(const std::string& path, const std::string& keyword, const std::string& message) {
    errors.push_back({path, keyword, message});
  }

  std::optional<std::uint64_t> count(const json& v, const std::string& path, const std::string& k) {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0)
      return static_cast<std::uint64_t>(v.get<std::int64_t>());
    // Below 2^64 before the cast: a larger double does not fit (the cast would be undefined).
    if (v.is_number_float() && v.get<double>() >= 0 && v.get<double>() < 18446744073709551616.0 &&
        v.get<double>() == static_cast<double>(static_cast<std::uint64_t>(v.get<double>())))
      return static_cast<std::uint64_t>(v.get<double>());
    err(path, k, "must be a non-negative integer");
    return std::nullopt;
  }

  std::optional<double> number(const json& v, const std::string& path, const std::string& k) {
    if (v.is_number()) return v.get<double>();
    err(path, k, "must be a number");
    return std::nullopt;
  }

  bool boolean(const json& v, const std::string& path, const std::string& k) {
    if (v.is_boolean()) return v.get<bool>();
    err(path, k, "must be a boolean");
    return false;
  }

  std::vector<SchemaNodePtr> branches(const json& v, const std::string& path, const std::string& k,
                                      bool intOrStringTypes) {
    std::vector<SchemaNodePtr> out;
    if (!v.is_array()) {
      err(path, k, "must be an array of schemas");
      return out;
    }
    for (std::size_t i = 0; i < v.size(); ++i)
      out.push_back(parse(v[i], child(path, k + "[" + std::to_string(i) + "]"), Level::Field, true,
                          intOrStringTypes));
    return out;
  }

  void keyword(SchemaNode& n, const std::string& key, const json& v, const std::string& path,
               Level lvl, bool vv, const json& whole) {
    auto vvForbidden = [&](const char* what) {
      if (vv)
        err(path, key, std::string(what) + " to be structural (inside allOf/anyOf/oneOf/not)");
    };
    if (key == "description" || key == "title") {
      vvForbidden("must be empty");
    } else if (key == "example" || key == "externalDocs") {
      // documentation only
    } else if (key == "type") {
      if (!v.is_string()) {
        err(path, key, "must be a single type name string");
        return;
      }
      const auto t = v.get<std::string>();
      static const std::map<std::string, SchemaType> types = {
          {"object", SchemaType::Object}, {"array", SchemaType::Array},
          {"string", SchemaType::String}, {"integer", SchemaType::Integer},
          {"number", SchemaType::Number}, {"boolean", SchemaType::Boolean}};
      auto it = types.find(t);
      if (it == types.end()) {
        err(path, key,
            "unsupported type \"" + t + "\" (object, array, string, integer, number, boolean)");
        return;
      }
      n.type = it->second;
      if (vv && !allowTypeHere_) err(path, key, "must be empty to be structural");
    } else if (key == "nullable") {
      n.nullable = boolean(v, path, key);
      if (n.nullable) vvForbidden("must be false");
    } else if (key == "format") {
      if (!v.is_string()) return err(path, key, "must be a string");
      n.format = v.get<std::string>();
      if (!n.format.empty() && !isKnownFormat(n.format))
        notes.push_back("format \"" + n.format + "\" at openAPIV3Schema" +
                        (path.empty() ? "" : "." + path) +
                        " is not validated by kube-apiserver; generated as plain value");
    } else if (key == "enum") {
      if (!v.is_array()) return err(path, key, "must be an array");
      n.enumValues = std::vector<json>(v.begin(), v.end());
    } else if (key == "default") {
      n.defaultValue = v;
      if (vv) err(path, key, "must be undefined to be structural");
    } else if (key == "required") {
      if (!v.is_array()) return err(path, key, "must be an array of property names");
      for (const auto& r : v) {
        if (!r.is_string()) {
          err(path, key, "must contain only strings");
          continue;
        }
        n.required.push_back(r.get<std::string>());
      }
    } else if (key == "properties") {
      if (!v.is_object()) return err(path, key, "must be an object of schemas");
      n.hasProperties = true;
      for (const auto& [name, sub] : v.items()) {
        const auto p = child(path, "properties[" + name + "]");
        if (vv && name == "metadata") err(p, "", "must not be specified in a nested context");
        n.properties[name] = parse(sub, p, Level::Field, vv, false);
      }
    } else if (key == "additionalProperties") {
      if (vv) return err(path, key, "must be undefined to be structural");
      if (v.is_boolean()) {
        n.additionalPropertiesBool = v.get<bool>();
      } else {
        n.additionalProperties =
            parse(v, child(path, "additionalProperties"), Level::Field, false, false);
      }
      if (lvl == Level::Root) err(path, key, "must not be used at the root");
    } else if (key == "items") {
      if (v.is_array()) return err(path, key, "must be a single schema, not a list of schemas");
      n.items = parse(v, child(path, "items"), Level::Item, vv, false);
    } else if (key == "minLength") {
      n.minLength = count(v, path, key);
    } else if (key == "maxLength") {
      n.maxLength = count(v, path, key);
    } else if (key == "minItems") {
      n.minItems = count(v, path, key);
    } else if (key == "maxItems") {
      n.maxItems = count(v, path, key);
    } else if (key == "minProperties") {
      n.minProperties = count(v, path, key);
    } else if (key == "maxProperties") {
      n.maxProperties = count(v, path, key);
    } else if (key == "minimum") {
      n.minimum = number(v, path, key);
    } else if (key == "maximum") {
      n.maximum = number(v, path, key);
    } else if (key == "multipleOf") {
      n.multipleOf = number(v, path, key);
      if (n.multipleOf && *n.multipleOf <= 0) err(path, key, "must be greater than zero");
    } else if (key == "exclusiveMinimum") {
      n.exclusiveMinimum = boolean(v, path, key);
    } else if (key == "exclusiveMaximum") {
      n.exclusiveMaximum = boolean(v, path, key);
    } else if (key == "uniqueItems") {
      n.uniqueItems = boolean(v, path, key);
      if (n.uniqueItems)
        notes.push_back(
            "uniqueItems: true at openAPIV3Schema" + (path.empty() ? "" : "." + path) +
            " is rejected by kube-apiserver for CRDs; items are generated unique anyway");
    } else if (key == "pattern") {
      if (!v.is_string()) return err(path, key, "must be a string");
      n.pattern = v.get<std::string>();
      n.patternRe = compilePattern(*n.pattern, path);
    } else if (key == "allOf" || key == "anyOf" || key == "oneOf") {
      // The int-or-string exception: `anyOf: [{type: integer}, {type: string}]`, directly or as
      // the first allOf entry, may carry types.
      const bool ios = whole.value("x-kubernetes-int-or-string", false) == true;
      auto& target = key == "allOf" ? n.allOf : key == "anyOf" ? n.anyOf : n.oneOf;
      if (key == "allOf" && ios && v.is_array() && !v.empty() && v[0].is_object() &&
          v[0].size() == 1 && isIntOrStringAnyOf(v[0].value("anyOf", json()))) {
        target.push_back(parseAllowingType(v[0], child(path, "allOf[0]")));
        for (std::size_t i = 1; i < v.size(); ++i)
          target.push_back(parse(v[i], child(path, "allOf[" + std::to_string(i) + "]"),
                                 Level::Field, true, false));
      } else {
        const bool allowType = key == "anyOf" && isIntOrStringAnyOf(v) && (ios || allowTypeHere_);
        target = allowType ? typedBranches(v, path, key) : branches(v, path, key, false);
      }
    } else if (key == "not") {
      n.notSchema = parse(v, child(path, "not"), Level::Field, true, false);
    } else if (key == "x-kubernetes-int-or-string") {
      n.intOrString = boolean(v, path, key);
      if (n.intOrString) vvForbidden("must be false");
    } else if (key == "x-kubernetes-preserve-unknown-fields") {
      n.preserveUnknownFields = boolean(v, path, key);
      if (n.preserveUnknownFields) vvForbidden("must be false");
    } else if (key == "x-kubernetes-embedded-resource") {
      n.embeddedResource = boolean(v, path, key);
      if (n.embeddedResource) vvForbidden("must be false");
    } else if (key == "x-kubernetes-list-type") {
      if (!v.is_string()) return err(path, key, "must be a string");
      n.listType = v.get<std::string>();
      if (n.listType != "atomic" && n.listType != "set" && n.listType != "map")
        err(path, key, "must be one of atomic, set, map; got \"" + n.listType + "\"");
      vvForbidden("must be undefined");
    } else if (key == "x-kubernetes-list-map-keys") {
      if (!v.is_array()) return err(path, key, "must be an array of property names");
      for (const auto& k : v)
        if (k.is_string())
          n.listMapKeys.push_back(k.get<std::string>());
        else
          err(path, key, "must contain only strings");
      if (!n.listMapKeys.empty()) vvForbidden("must be empty");
    } else if (key == "x-kubernetes-map-type") {
      if (!v.is_string()) return err(path, key, "must be a string");
      n.mapType = v.get<std::string>();
      if (n.mapType != "atomic" && n.mapType != "granular")
        err(path, key, "must be atomic or granular; got \"" + n.mapType + "\"");
      vvForbidden("must be undefined");
    } else if (key == "x-kubernetes-validations") {
      if (!v.is_array()) return err(path, key, "must be an array of rules");
      n.celRules = static_cast<int>(v.size());
      cel += n.celRules;
      vvForbidden("must be empty");
    } else if (forbiddenKeywords().count(key)) {
      err(path, key, "is not supported in CustomResourceDefinition schemas");
    } else {
      err(path, key, "unknown schema keyword");
    }
  }

  // Parses a `{anyOf: [{type: integer}, {type: string}]}` allOf entry of an int-or-string node.
  SchemaNodePtr parseAllowingType(const json& j, const std::string& path) {
    return parse(j, path, Level::Field, true, true);
  }

  std::vector<SchemaNodePtr> typedBranches(const json& v, const std::string& path,
                                           const std::string& key) {
    return branches(v, path, key, true);
  }

  std::shared_ptr<const re2::RE2> compilePattern(const std::string& pattern,
                                                 const std::string& path) {
    auto it = patternCache_.find(pattern);
    if (it != patternCache_.end()) return it->second;
    RE2::Options opts;
    opts.set_log_errors(false);
    auto re = std::make_shared<re2::RE2>(pattern, opts);
    if (!re->ok()) {
      err(path, "pattern", "must be a valid regular expression, but isn't: " + re->error());
      return nullptr;
    }
    patternCache_[pattern] = re;
    return re;
  }

  // Structural-schema invariants of apiextensions-apiserver (pkg/apiserver/schema/validation.go)
  // and the CRD API validation rules that shape generation.
  void structural(SchemaNode& n, const std::string& path, Level lvl) {
    if (n.embeddedResource && n.type != SchemaType::Object) {
      err(path, "type", "must be object if x-kubernetes-embedded-resource is true");
    } else if (n.type == SchemaType::None && !n.intOrString && !n.preserveUnknownFields) {
      err(path, "type",
          lvl == Level::Root   ? "must not be empty at the root"
          : lvl == Level::Item ? "must not be empty for specified array items"
                               : "must not be empty for specified object fields");
    }
    if (lvl == Level::Root && n.type != SchemaType::None && n.type != SchemaType::Object)
      err(path, "type", "must be object at the root");
    if (n.intOrString && n.preserveUnknownFields)
      err(path, "x-kubernetes-preserve-unknown-fields",
          "must be false if x-kubernetes-int-or-string is true");
    if (n.intOrString && n.embeddedResource)
      err(path, "x-kubernetes-embedded-resource",
          "must be false if x-kubernetes-int-or-string is true");
    if (n.intOrString && n.type != SchemaType::None)
      err(path, "type", "must be empty if x-kubernetes-int-or-string is true");
    if (n.embeddedResource && (n.additionalProperties || n.additionalPropertiesBool))
      err(path, "additionalProperties",
          "must not be used if x-kubernetes-embedded-resource is set");
    if (n.embeddedResource && !n.preserveUnknownFields && n.properties.empty())
      err(path, "properties",
          "must not be empty if x-kubernetes-embedded-resource is true without "
          "x-kubernetes-preserve-unknown-fields");
    if (n.type == SchemaType::Array && !n.items) err(path, "items", "must be specified");
    if (n.items && n.type != SchemaType::Array && n.type != SchemaType::None)
      err(path, "items", "must only be used with type array");
    if ((n.hasProperties || n.additionalProperties || n.additionalPropertiesBool) &&
        n.type != SchemaType::Object && n.type != SchemaType::None)
      err(path, n.hasProperties ? "properties" : "additionalProperties",
          "must only be used with type object");
    if (n.hasProperties && (n.additionalProperties || n.additionalPropertiesBool))
      err(path, "additionalProperties",
          "properties and additionalProperties are mutually exclusive");
    for (const auto& r : n.required)
      if (n.hasProperties && !n.property(r) && !n.preserveUnknownFields && !n.additionalProperties)
        notes.push_back("required property \"" + r + "\" at openAPIV3Schema" +
                        (path.empty() ? "" : "." + path) + " has no schema");

    if (!n.listType.empty() && n.type != SchemaType::Array)
      err(path, "x-kubernetes-list-type", "must only be used with type array");
    if (!n.listMapKeys.empty() && n.listType != "map")
      err(path, "x-kubernetes-list-map-keys", "must only be used with x-kubernetes-list-type: map");
    if (n.listType == "map") {
      if (n.listMapKeys.empty())
        err(path, "x-kubernetes-list-map-keys",
            "must not be empty if x-kubernetes-list-type is map");
      if (!n.items || n.items->type != SchemaType::Object) {
        err(path, "items.type", "must be object if x-kubernetes-list-type is map");
      } else {
        for (const auto& k : n.listMapKeys) {
          const SchemaNode* key = n.items->property(k);
          if (!key) {
            err(path, "x-kubernetes-list-map-keys",
                "entry \"" + k + "\" must be a property of items");
          } else if (!n.items->isRequired(k) && !key->defaultValue) {
            err(path, "x-kubernetes-list-map-keys",
                "entry \"" + k + "\" must be required or have a default");
          }
        }
      }
    }
    if (!n.mapType.empty() && n.type != SchemaType::Object)
      err(path, "x-kubernetes-map-type", "must only be used with type object");

    // Metadata: at the root only name and generateName may be restricted.
    if (const SchemaNode* md = n.property("metadata");
        md && (lvl == Level::Root || n.embeddedResource)) {
      if (md->type != SchemaType::Object)
        err(child(path, "properties[metadata]"), "type", "must be object");
      if (lvl == Level::Root) {
        for (const auto& [name, _] : md->properties)
          if (name != "name" && name != "generateName")
            err(child(path, "properties[metadata]"), "properties[" + name + "]",
                "must not specify anything other than name and generateName");
      }
    }
    for (const char* k : {"apiVersion", "kind"})
      if (const SchemaNode* p = n.property(k);
          p && (lvl == Level::Root || n.embeddedResource) && p->type != SchemaType::String)
        err(child(path, std::string("properties[") + k + "]"), "type", "must be string");

    // Completeness: every field named under a junctor is specified structurally.
    for (const auto* list : {&n.allOf, &n.anyOf, &n.oneOf})
      for (const auto& b : *list) completeness(n, *b);
    if (n.notSchema) completeness(n, *n.notSchema);
  }

  void completeness(const SchemaNode& s, const SchemaNode& vv) {
    for (const auto& [name, sub] : vv.properties) {
      const SchemaNode* sp = s.property(name);
      if (!sp) {
        if (!s.preserveUnknownFields || s.hasProperties)
          err(sub->schemaPath, "", "must be specified outside of allOf/anyOf/oneOf/not as well");
        continue;
      }
      completeness(*sp, *sub);
    }
    if (vv.items) {
      if (!s.items)
        err(vv.items->schemaPath, "", "must be specified outside of allOf/anyOf/oneOf/not as well");
      else
        completeness(*s.items, *vv.items);
    }
    for (const auto* list : {&vv.allOf, &vv.anyOf, &vv.oneOf})
      for (const auto& b : *list) completeness(s, *b);
    if (vv.notSchema) completeness(s, *vv.notSchema);
  }

  bool allowTypeHere_ = false;
};

}  // namespace

std::variant<ParsedSchema, std::vector<SchemaError>> parseSchema(const json& schema) {
  Parser p;
  auto root = p.parse(schema, "", Level::Root, false, false);
  if (!p.errors.empty()) return p.errors;
  ParsedSchema out;
  out.root = root;
  out.celRules = p.cel;
  out.notes = std::move(p.notes);
  out.nodeCount = p.nodes;
  return out;
}

}  // namespace convcheck
