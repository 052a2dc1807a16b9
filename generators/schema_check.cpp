#include "generators/schema_check.h"

#include <cmath>
#include <set>

#include <re2/re2.h>

#include "generators/format_check.h"
#include "kube/go/go_format.h"
#include "kube/go/utf8.h"
#include "kube/names/field_errors.h"
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

// The JSON type kube-openapi names for a value it finds where another type is wanted.
const char* typeOfValue(const json& v) {
  if (v.is_number_integer()) return "integer";
  if (v.is_number()) return "number";
  return v.type_name();  // "string", "boolean", "array", "object", "null"
}

// A bound as kube-openapi prints it (%v of its int64 or float64 form).
std::string boundText(double bound) {
  if (std::trunc(bound) == bound && std::fabs(bound) < 9.2e18)
    return std::to_string(static_cast<long long>(bound));
  return goFloatV(bound);
}

// kube-openapi's words for a value of the wrong type ("spec.port in body must be of type integer:
// \"string\""), with the value's type name as the invalid value, as kube-apiserver says it.
std::string wrongType(const std::string& path, const std::string& wanted, const char* found) {
  return invalidValue(found, inBody(path, "must be of type " + wanted + ": " + goQuote(found)));
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
        fail(path, wrongType(path, schemaTypeName(n.type), "null"));
      if (n.intOrString && !n.nullable && !n.valueValidation)
        fail(path, wrongType(path, "integer,string", "null"));
      if (n.enumValues) checkEnum(n, v, path);
      return;  // kube-openapi skips every other validator for null
    }
    if (!typeMatches(n.type, v)) {
      fail(path, wrongType(path, schemaTypeName(n.type), typeOfValue(v)));
      return;
    }
    if (n.intOrString && !n.valueValidation && !v.is_number_integer() && !v.is_string()) {
      fail(path, wrongType(path, "integer,string", typeOfValue(v)));
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
    fail(path, unsupportedValue(v, supportedValues(*n.enumValues)));
  }

  void checkString(const SchemaNode& n, const std::string& s, const std::string& path) {
    if (n.minLength || n.maxLength) {
      const std::size_t len = runeCount(s);
      if (n.minLength && len < *n.minLength)
        fail(path, invalidValue(s, inBody(path, "should be at least " +
                                                    std::to_string(*n.minLength) + " chars long")));
      if (n.maxLength && len > *n.maxLength)
        fail(path, tooLong(static_cast<long long>(*n.maxLength)));
    }
    if (n.patternRe && !RE2::PartialMatch(s, *n.patternRe))
      fail(path, invalidValue(s, inBody(path, "should match '" + *n.pattern + "'")));
    if (!n.format.empty() && isStringFormat(n.format) && !formatAccepts(n.format, s))
      fail(path, invalidValue(s, inBody(path, "must be of type " + n.format + ": " + goQuote(s))));
  }

  void checkNumber(const SchemaNode& n, const json& v, const std::string& path) {
    const double d = v.get<double>();
    if (n.minimum) {
      if (n.exclusiveMinimum ? !(d > *n.minimum) : !(d >= *n.minimum))
        fail(path, invalidValue(v, inBody(path, std::string("should be greater than ") +
                                                    (n.exclusiveMinimum ? "" : "or equal to ") +
                                                    boundText(*n.minimum))));
    }
    if (n.maximum) {
      if (n.exclusiveMaximum ? !(d < *n.maximum) : !(d <= *n.maximum))
        fail(path, invalidValue(v, inBody(path, std::string("should be less than ") +
                                                    (n.exclusiveMaximum ? "" : "or equal to ") +
                                                    boundText(*n.maximum))));
    }
    if (n.multipleOf && !isMultipleOf(d, *n.multipleOf))
      fail(path,
           invalidValue(v, inBody(path, "should be a multiple of " + boundText(*n.multipleOf))));
    if (v.is_number_float() && std::trunc(d) == d && std::fabs(d) < 9.2e18)
      fail(path, "integral number written as float (" + v.dump() +
                     "); kube-apiserver stores it as an integer");
  }

  void checkArray(const SchemaNode& n, const json& v, const std::string& path) {
    if (n.minItems && v.size() < *n.minItems)
      fail(path, invalidValue(v.size(), inBody(path, "should have at least " +
                                                         std::to_string(*n.minItems) + " items")));
    if (n.maxItems && v.size() > *n.maxItems)
      fail(path, tooMany(static_cast<long long>(v.size()), static_cast<long long>(*n.maxItems)));
    if (n.uniqueItems || n.listType == "set") {
      for (std::size_t i = 0; i < v.size() && !done(); ++i)
        for (std::size_t j = i + 1; j < v.size(); ++j)
          if (v[i] == v[j]) {
            fail(indexPath(path, j), duplicateValue(v[j]));
            break;
          }
    }
    if (n.listType == "map" && !n.listMapKeys.empty()) {
      std::set<std::string> seen;
      for (std::size_t i = 0; i < v.size() && !done(); ++i) {
        if (!v[i].is_object()) continue;
        json key = json::object();  // as apiextensions names a duplicate: its key fields
        for (const auto& k : n.listMapKeys) {
          if (v[i].contains(k)) {
            key[k] = v[i][k];
          } else {
            const SchemaNode* ks = n.items ? n.items->property(k) : nullptr;
            key[k] = ks && ks->defaultValue ? *ks->defaultValue : json();
          }
        }
        if (!seen.insert(key.dump()).second) fail(indexPath(path, i), duplicateValue(key));
      }
    }
    if (opt_.deep && n.items)
      for (std::size_t i = 0; i < v.size() && !done(); ++i)
        checkNode(*n.items, v[i], out_ ? indexPath(path, i) : path, false);
  }

  void checkObject(const SchemaNode& n, const json& v, const std::string& path, bool top) {
    if (n.minProperties && v.size() < *n.minProperties)
      fail(path, invalidValue(v.size(),
                              inBody(path, "should have at least " +
                                               std::to_string(*n.minProperties) + " properties")));
    if (n.maxProperties && v.size() > *n.maxProperties)
      fail(path,
           tooMany(static_cast<long long>(v.size()), static_cast<long long>(*n.maxProperties)));
    for (const auto& r : n.required)
      if (!v.contains(r)) fail(out_ ? childPath(path, r) : path, requiredValue());
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
      if (it == v.end() || (it->is_string() && it->get_ref<const std::string&>().empty()))
        fail(childPath(path, k), requiredValue("must not be empty"));
      else if (!it->is_string())
        fail(childPath(path, k), wrongType(childPath(path, k), "string", typeOfValue(*it)));
    }
    if (auto kind = v.find("kind"); kind != v.end() && kind->is_string()) {
      std::string lower;
      for (char c : kind->get_ref<const std::string&>())
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (!lower.empty() && !isDns1035Label(lower)) {
        std::string errors;
        for (const auto& e : dns1035LabelErrors(lower)) errors += (errors.empty() ? "" : ",") + e;
        fail(childPath(path, "kind"),
             invalidValue(*kind, "may have mixed case, but should otherwise match: " + errors));
      }
    }
    if (auto md = v.find("metadata"); md != v.end() && !md->is_object())
      fail(childPath(path, "metadata"),
           wrongType(childPath(path, "metadata"), "object", typeOfValue(*md)));
  }

  void checkJunctors(const SchemaNode& n, const json& v, const std::string& path) {
    // go-openapi's words; kube-apiserver gives them as an invalid value "".
    const auto combinator = [&](const std::string& words) {
      fail(path, invalidValue("", goQuote(path) + " " + words));
    };
    for (std::size_t i = 0; i < n.allOf.size(); ++i)
      if (!holds(*n.allOf[i], v)) {
        combinator("must validate all the schemas (allOf)");
        break;
      }
    if (!n.anyOf.empty()) {
      bool any = false;
      for (const auto& b : n.anyOf)
        if (holds(*b, v)) {
          any = true;
          break;
        }
      if (!any) combinator("must validate at least one schema (anyOf)");
    }
    if (!n.oneOf.empty()) {
      int matches = 0;
      for (const auto& b : n.oneOf)
        if (holds(*b, v)) ++matches;
      if (matches == 0)
        combinator("must validate one and only one schema (oneOf). Found none valid");
      if (matches > 1)
        combinator("must validate one and only one schema (oneOf). Found " +
                   std::to_string(matches) + " alternatives");
    }
    if (n.notSchema && holds(*n.notSchema, v)) combinator("must not validate the schema (not)");
  }
};

}  // namespace

bool checkValue(const SchemaNode& node, const json& value, const std::string& path,
                std::vector<Violation>* out, CheckOptions options) {
  Checker c(out, options);
  return c.check(node, value, path, true);
}

}  // namespace convcheck
