#include "generators/schema_check.h"

#include <cmath>
#include <set>

#include <re2/re2.h>

#include "generators/format_check.h"
#include "kube/go/utf8.h"
#include "kube/names/name_rules.h"

namespace convcheck {

using nlohmann::json;

std::string childPath(const std::string& parent, const std::string& key) {
  const bool plain = !key.empty() && key.find_first_of(".[]/ ") == std::string::npos;
  if (!plain) return parent + "[" + key + "]";
  return parent.empty() ? key : parent + "." + key;
}

std::string indexPath(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

namespace {

bool typeMatches(SchemaType t, const json& v) {
  switch (t) {
    case SchemaType::Object:
      return v.is_object();
    case SchemaType::Array:
      return v.is_array();
    case SchemaType::String:
      return v.is_string();
    case SchemaType::Integer:
      return v.is_number_integer();  // includes unsigned
    case SchemaType::Number:
      return v.is_number();
    case SchemaType::Boolean:
      return v.is_boolean();
    case SchemaType::None:
      return true;
  }
  return true;
}

// go-openapi's MultipleOf: data/factor (or 1/factor*data for factor < 1) must be a JSON integer.
bool isMultipleOf(double data, double factor) {
  const double mult = factor < 1 ? 1 / factor * data : data / factor;
  if (!std::isfinite(mult) || std::fabs(mult) > 9007199254740992.0) return false;
  return std::fabs(mult - std::round(mult)) <= 1e-9 * std::max(1.0, std::fabs(mult));
}

class Checker {
 public:
  Checker(std::vector<Violation>* out, CheckOptions opt) : out_(out), opt_(opt) {}

  bool check(const SchemaNode& n, const json& v, const std::string& path, bool top) {
    const std::size_t before = failures_;
    checkNode(n, v, path, top);
    return failures_ == before;
  }

 private:
  std::vector<Violation>* out_;
  CheckOptions opt_;
  std::size_t failures_ = 0;

  bool done() const { return !out_ && failures_ > 0; }

  void fail(const std::string& path, std::string message) {
    ++failures_;
    if (out_) out_->push_back({path, std::move(message)});
  }

  // A junctor branch is evaluated silently: only whether it holds matters.
  bool holds(const SchemaNode& branch, const json& v) {
    Checker c(nullptr, CheckOptions{true, false});
    return c.check(branch, v, "", false);
  }

  void checkNode(const SchemaNode& n, const json& v, const std::string& path, bool top) {
    if (v.is_null()) {
      if (n.type != SchemaType::None && !n.nullable)
        fail(path, std::string("must be ") + schemaTypeName(n.type) +
                       ", got null (not nullable: kube-apiserver prunes the field)");
      if (n.intOrString && !n.nullable && !n.valueValidation)
        fail(path, "must be integer or string, got null (not nullable)");
      if (n.enumValues) checkEnum(n, v, path);
      return;  // kube-openapi skips every other validator for null
    }
    if (!typeMatches(n.type, v)) {
      fail(path, std::string("must be ") + schemaTypeName(n.type) + ", got " + v.type_name());
      return;
    }
    if (n.intOrString && !n.valueValidation && !v.is_number_integer() && !v.is_string()) {
      fail(path, std::string("must be integer or string, got ") + v.type_name());
      return;
    }
    if (n.enumValues) checkEnum(n, v, path);
    if (done()) return;
    if (v.is_string()) checkString(n, v.get_ref<const std::string&>(), path);
    if (v.is_number()) checkNumber(n, v, path);
    if (v.is_array()) checkArray(n, v, path);
    if (v.is_object()) checkObject(n, v, path, top);
    if (done()) return;
    checkJunctors(n, v, path);
  }

  void checkEnum(const SchemaNode& n, const json& v, const std::string& path) {
    for (const auto& e : *n.enumValues)
      if (e == v) return;
    fail(path, "must be one of the enum values, got " + v.dump());
  }

  void checkString(const SchemaNode& n, const std::string& s, const std::string& path) {
    if (n.minLength || n.maxLength) {
      const std::size_t len = runeCount(s);
      if (n.minLength && len < *n.minLength)
        fail(path, "must be at least " + std::to_string(*n.minLength) + " characters long, got " +
                       std::to_string(len));
      if (n.maxLength && len > *n.maxLength)
        fail(path, "must be at most " + std::to_string(*n.maxLength) + " characters long, got " +
                       std::to_string(len));
    }
    if (n.patternRe && !RE2::PartialMatch(s, *n.patternRe))
      fail(path, "must match pattern " + *n.pattern + " (RE2, unanchored), got " + json(s).dump());
    if (!n.format.empty() && isStringFormat(n.format) && !formatAccepts(n.format, s))
      fail(path, "must be a valid " + n.format + ", got " + json(s).dump());
  }

  void checkNumber(const SchemaNode& n, const json& v, const std::string& path) {
    const double d = v.get<double>();
    if (n.minimum) {
      if (n.exclusiveMinimum ? !(d > *n.minimum) : !(d >= *n.minimum))
        fail(path, std::string("must be ") + (n.exclusiveMinimum ? "greater than " : "at least ") +
                       json(*n.minimum).dump() + ", got " + v.dump());
    }
    if (n.maximum) {
      if (n.exclusiveMaximum ? !(d < *n.maximum) : !(d <= *n.maximum))
        fail(path, std::string("must be ") + (n.exclusiveMaximum ? "less than " : "at most ") +
                       json(*n.maximum).dump() + ", got " + v.dump());
    }
    if (n.multipleOf && !isMultipleOf(d, *n.multipleOf))
      fail(path, "must be a multiple of " + json(*n.multipleOf).dump() + ", got " + v.dump());
    if (v.is_number_float() && std::trunc(d) == d && std::fabs(d) < 9.2e18)
      fail(path, "integral number written as float (" + v.dump() +
                     "); kube-apiserver stores it as an integer");
  }

  void checkArray(const SchemaNode& n, const json& v, const std::string& path) {
    if (n.minItems && v.size() < *n.minItems)
      fail(path, "must have at least " + std::to_string(*n.minItems) + " items, got " +
                     std::to_string(v.size()));
    if (n.maxItems && v.size() > *n.maxItems)
      fail(path, "must have at most " + std::to_string(*n.maxItems) + " items, got " +
                     std::to_string(v.size()));
    if (n.uniqueItems || n.listType == "set") {
      for (std::size_t i = 0; i < v.size() && !done(); ++i)
        for (std::size_t j = i + 1; j < v.size(); ++j)
          if (v[i] == v[j]) {
            fail(indexPath(path, j),
                 "duplicate entry " + v[j].dump() + " (also at index " + std::to_string(i) + "; " +
                     (n.listType == "set" ? "x-kubernetes-list-type: set)" : "uniqueItems)"));
            break;
          }
    }
    if (n.listType == "map" && !n.listMapKeys.empty()) {
      std::set<std::string> seen;
      for (std::size_t i = 0; i < v.size() && !done(); ++i) {
        if (!v[i].is_object()) continue;
        json key = json::array();
        for (const auto& k : n.listMapKeys) {
          if (v[i].contains(k)) {
            key.push_back(v[i][k]);
          } else {
            const SchemaNode* ks = n.items ? n.items->property(k) : nullptr;
            key.push_back(ks && ks->defaultValue ? *ks->defaultValue : json());
          }
        }
        if (!seen.insert(key.dump()).second)
          fail(indexPath(path, i),
               "duplicate map key " + key.dump() + " (x-kubernetes-list-type: map)");
      }
    }
    if (opt_.deep && n.items)
      for (std::size_t i = 0; i < v.size() && !done(); ++i)
        checkNode(*n.items, v[i], out_ ? indexPath(path, i) : path, false);
  }

  void checkObject(const SchemaNode& n, const json& v, const std::string& path, bool top) {
    if (n.minProperties && v.size() < *n.minProperties)
      fail(path, "must have at least " + std::to_string(*n.minProperties) + " properties, got " +
                     std::to_string(v.size()));
    if (n.maxProperties && v.size() > *n.maxProperties)
      fail(path, "must have at most " + std::to_string(*n.maxProperties) + " properties, got " +
                     std::to_string(v.size()));
    for (const auto& r : n.required)
      if (!v.contains(r)) fail(out_ ? childPath(path, r) : path, "required field is missing");
    if (n.embeddedResource) checkEmbedded(v, path);
    if (done()) return;
    const bool resource = (top && opt_.rootObject) || n.embeddedResource;
    for (auto it = v.begin(); it != v.end() && !done(); ++it) {
      const std::string& key = it.key();
      if (resource && (key == "apiVersion" || key == "kind" || key == "metadata")) {
        if (key == "metadata") continue;  // ObjectMeta rules live in metadata_check
        if (const SchemaNode* p = n.property(key); p && opt_.deep)
          checkNode(*p, it.value(), out_ ? childPath(path, key) : path, false);
        continue;
      }
      if (const SchemaNode* p = n.property(key)) {
        if (opt_.deep) checkNode(*p, it.value(), out_ ? childPath(path, key) : path, false);
      } else if (n.additionalProperties) {
        if (opt_.deep)
          checkNode(*n.additionalProperties, it.value(), out_ ? childPath(path, key) : path, false);
      } else if (!n.valueValidation && !n.preserveUnknownFields &&
                 !(n.additionalPropertiesBool && *n.additionalPropertiesBool)) {
        fail(out_ ? childPath(path, key) : path,
             "unknown field (not in the schema and not preserved; kube-apiserver prunes it)");
      }
    }
  }

  void checkEmbedded(const json& v, const std::string& path) {
    for (const char* k : {"apiVersion", "kind"}) {
      auto it = v.find(k);
      if (it == v.end()) {
        fail(childPath(path, k), "must not be empty (x-kubernetes-embedded-resource)");
      } else if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
        fail(childPath(path, k), "must be a non-empty string (x-kubernetes-embedded-resource)");
      }
    }
    if (auto kind = v.find("kind"); kind != v.end() && kind->is_string()) {
      std::string lower;
      for (char c : kind->get_ref<const std::string&>())
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (!lower.empty() && !isDns1035Label(lower))
        fail(childPath(path, "kind"),
             "may have mixed case, but should otherwise be a DNS-1035 label");
    }
    if (auto md = v.find("metadata"); md != v.end() && !md->is_object())
      fail(childPath(path, "metadata"), "must be an object");
  }

  void checkJunctors(const SchemaNode& n, const json& v, const std::string& path) {
    for (std::size_t i = 0; i < n.allOf.size(); ++i)
      if (!holds(*n.allOf[i], v)) fail(path, "must match allOf[" + std::to_string(i) + "]");
    if (!n.anyOf.empty()) {
      bool any = false;
      for (const auto& b : n.anyOf)
        if (holds(*b, v)) {
          any = true;
          break;
        }
      if (!any) fail(path, "must match at least one schema in anyOf");
    }
    if (!n.oneOf.empty()) {
      int matches = 0;
      for (const auto& b : n.oneOf)
        if (holds(*b, v)) ++matches;
      if (matches != 1)
        fail(path, "must match exactly one schema in oneOf, matches " + std::to_string(matches));
    }
    if (n.notSchema && holds(*n.notSchema, v)) fail(path, "must not match the schema in not");
  }
};

}  // namespace

bool checkValue(const SchemaNode& node, const json& value, const std::string& path,
                std::vector<Violation>* out, CheckOptions options) {
  Checker c(out, options);
  return c.check(node, value, path, true);
}

}  // namespace convcheck
