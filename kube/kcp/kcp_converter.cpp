#include "kube/kcp/kcp_converter.h"

#include <cmath>
#include <map>
#include <optional>

#include "kube/cel/json_view.h"
#include "kube/cel/program.h"
#include "kube/go/go_format.h"
#include "kube/go/go_json.h"
#include "kube/go/go_json_decode.h"

namespace convcheck::kcp {

using nlohmann::json;

namespace {

// kube-apiserver's runtime budget for one CEL evaluation stands in for kcp's per-object timeout
// (1 s by default): an evaluation that exceeds it fails the same way on every run.
constexpr std::uint64_t kEvaluationBudget = 10'000'000;

// A field path as kcp splits it: the leading '.' dropped, then split at every '.'.
std::vector<std::string> splitPath(const std::string& path) {
  std::string p = !path.empty() && path[0] == '.' ? path.substr(1) : path;
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = p.find('.', start);
    out.push_back(p.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return out;
    start = dot + 1;
  }
}

std::string joinPath(const std::vector<std::string>& fields, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n && i < fields.size(); ++i) out += "." + fields[i];
  return out;
}

// fmt %v of a value decoded into interface{}.
std::string goV(const json& v) {
  if (v.is_null()) return "<nil>";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_float()) return goFloatV(v.get<double>());
  if (v.is_number()) return v.dump();
  std::string out = v.is_array() ? "[" : "map[";
  bool first = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    out += first ? "" : " ";
    first = false;
    out += v.is_array() ? goV(*it) : it.key() + ":" + goV(*it);
  }
  return out + "]";
}

// The word encoding/json's UnmarshalTypeError uses for a JSON value's kind.
std::string goJsonKindWord(const json& v) {
  if (v.is_array()) return "array";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_number()) return "number";
  return "object";
}

// unstructured.NestedFieldNoCopy: the value (nullptr when absent, a null value included as
// present), or the accessor error when a step is not an object.
std::variant<const json*, std::string> nestedField(const json& object,
                                                   const std::vector<std::string>& fields) {
  const json* val = &object;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (val->is_null()) return static_cast<const json*>(nullptr);
    if (!val->is_object())
      return joinPath(fields, i + 1) + " accessor error: " + goV(*val) + " is of the type " +
             goTypeName(*val) + ", expected map[string]interface{}";
    auto it = val->find(fields[i]);
    if (it == val->end()) return static_cast<const json*>(nullptr);
    val = &*it;
  }
  return val;
}

// unstructured.SetNestedField: "" or its error.
std::string setNestedField(json& object, const std::vector<std::string>& fields, json value) {
  json* m = &object;
  for (std::size_t i = 0; i + 1 < fields.size(); ++i) {
    auto it = m->find(fields[i]);
    if (it == m->end()) {
      m = &((*m)[fields[i]] = json::object());
    } else if (it->is_object()) {
      m = &*it;
    } else {
      return "value cannot be set because " + joinPath(fields, i + 1) +
             " is not a map[string]interface{}";
    }
  }
  (*m)[fields.back()] = std::move(value);
  return "";
}

// A number as a float64 holds it and Go writes it back: integral values below 2^63 as integers.
json throughFloat64(json v) {
  if (v.is_object() || v.is_array()) {
    for (auto& e : v) e = throughFloat64(std::move(e));
    return v;
  }
  if (!v.is_number()) return v;
  const double d = v.get<double>();
  if (std::trunc(d) == d && std::fabs(d) < 9223372036854775808.0)
    return json(static_cast<std::int64_t>(d));
  return json(d);
}

std::string versionOf(const std::string& apiVersion) {
  const auto slash = apiVersion.find('/');
  return slash == std::string::npos ? apiVersion : apiVersion.substr(slash + 1);
}

const json* annotationsOf(const json& object) {
  auto m = object.find("metadata");
  if (m == object.end() || !m->is_object()) return nullptr;
  auto a = m->find("annotations");
  return a == m->end() || !a->is_object() ? nullptr : &*a;
}

}  // namespace

struct KcpConverter::State {
  struct Rule {
    std::size_t index = 0;  // in its entry's rules
    std::vector<std::string> from, to;
    std::string toPath;  // the destination without its leading '.'
    std::optional<cel::Program> program;
  };
  struct Entry {
    std::size_t index = 0;  // in spec.conversions
    std::vector<Rule> rules;
  };
  ApiConversion conversion;
  std::map<std::string, Entry> byFrom;  // kcp keys the compiled rules by `from` only: last wins
};

std::variant<KcpConverter, std::vector<std::string>> KcpConverter::compile(
    const ApiConversion& conversion) {
  auto state = std::make_shared<State>();
  state->conversion = conversion;
  std::vector<std::string> errors;
  for (std::size_t i = 0; i < conversion.conversions.size(); ++i) {
    const VersionConversion& c = conversion.conversions[i];
    State::Entry entry;
    entry.index = i;
    for (std::size_t j = 0; j < c.rules.size(); ++j) {
      const ConversionRule& r = c.rules[j];
      State::Rule rule;
      rule.index = j;
      rule.from = splitPath(r.field);
      rule.to = splitPath(r.destination);
      rule.toPath = !r.destination.empty() && r.destination[0] == '.' ? r.destination.substr(1)
                                                                      : r.destination;
      if (!r.transformation.empty()) {
        auto compiled = cel::Program::compile(r.transformation, {"self"});
        if (auto* error = std::get_if<std::string>(&compiled)) {
          errors.push_back(conversion.source + ": " + rulePath(i, j) +
                           ".transformation: Invalid value: " + goQuote(r.transformation) +
                           ": error compiling CEL program: ERROR: " + *error);
          continue;
        }
        rule.program = std::get<cel::Program>(std::move(compiled));
      }
      entry.rules.push_back(std::move(rule));
    }
    state->byFrom[c.from] = std::move(entry);
  }
  if (!errors.empty()) return errors;
  return KcpConverter(state);
}

const ApiConversion& KcpConverter::conversion() const { return state_->conversion; }

std::variant<json, ConversionFailure> KcpConverter::convert(const json& original,
                                                            const std::string& apiVersion) const {
  const ApiConversion& spec = state_->conversion;
  json converted = original;
  converted["apiVersion"] = apiVersion;
  const std::string originalVersion = versionOf(original.value("apiVersion", json("")).is_string()
                                                    ? original.value("apiVersion", std::string())
                                                    : std::string());
  const std::string targetVersion = versionOf(apiVersion);

  if (auto entry = state_->byFrom.find(originalVersion); entry != state_->byFrom.end()) {
    for (const State::Rule& rule : entry->second.rules) {
      const std::string where = rulePath(entry->second.index, rule.index);
      auto failed = [&](const std::string& message) {
        const ConversionRule& r = spec.conversions[entry->second.index].rules[rule.index];
        return ConversionFailure{
            where, "CEL rule `" + where + "` (" + r.field + " -> " + r.destination + ")",
            "error converting: " + message};
      };
      json value;  // null when the source field is absent
      auto source = nestedField(original, rule.from);
      if (auto* error = std::get_if<std::string>(&source))
        return failed("error getting source field " +
                      goQuote(joinPath(rule.from, rule.from.size()).substr(1)) + ": " + *error);
      if (const json* found = std::get<const json*>(source)) {
        if (!rule.program) {
          value = *found;
        } else {
          cel::EvalState budget;
          budget.limit = kEvaluationBudget;
          const cel::Value result =
              rule.program->evaluate({cel::jsonValue(*found, nullptr)}, budget);
          if (result.isError()) return failed("error executing transformation: " + result.str());
          if (result.kind() != cel::Kind::Null) {
            auto asJson = cel::toJson(result);
            if (auto* error = std::get_if<std::string>(&asJson))
              return failed("error converting CEL result to JSON: " + *error);
            value = throughFloat64(std::get<json>(std::move(asJson)));
          }
        }
      }
      if (auto error = setNestedField(converted, rule.to, std::move(value)); !error.empty())
        return failed("error setting destination field " + goQuote(rule.toPath) + ": " + error);
    }
  }

  json annotations = json::object();
  if (const json* a = annotationsOf(converted)) annotations = *a;
  const std::string targetKey = kPreserveAnnotationPrefix + targetVersion;
  auto stored = annotations.find(targetKey);
  if (stored != annotations.end() && stored->is_string() && !stored->get<std::string>().empty()) {
    // Converting back to a version that stored fields: restore them, drop the annotation.
    const std::string text = stored->get<std::string>();
    const std::string where = "metadata.annotations[" + targetKey + "]";
    const std::string what = "the object's preserve annotation " + targetKey;
    if (auto error = goJsonSyntaxError(text))
      return ConversionFailure{where, what, "error unmarshaling preserve annotation: " + *error};
    json preserved = goDecodeInterface(text).value;
    if (preserved.is_null()) preserved = json::object();  // Go leaves the map nil: no error
    if (!preserved.is_object())
      return ConversionFailure{where, what,
                               "error unmarshaling preserve annotation: json: cannot unmarshal " +
                                   goJsonKindWord(preserved) +
                                   " into Go value of type map[string]interface {}"};
    // Go ranges over the map in random order; convcheck restores in key order.
    for (auto& [field, value] : preserved.items())
      if (auto error = setNestedField(converted, splitPath(field), throughFloat64(value));
          !error.empty())
        return ConversionFailure{where, what,
                                 "error processing preserve map: error setting nested "
                                 "field " +
                                     goQuote(field) + ", value " + goV(value) + ": " + error};
    annotations.erase(targetKey);
    if (annotations.empty()) {
      if (converted.contains("metadata") && converted["metadata"].is_object())
        converted["metadata"].erase("annotations");
    } else {
      converted["metadata"]["annotations"] = std::move(annotations);
    }
    return converted;
  }

  // Otherwise store the fields every entry from the original's version preserves.
  json preserved = json::object();
  for (std::size_t i = 0; i < spec.conversions.size(); ++i) {
    const VersionConversion& c = spec.conversions[i];
    if (c.from != originalVersion) continue;
    for (std::size_t j = 0; j < c.preserve.size(); ++j) {
      std::string field = c.preserve[j];
      const std::string where =
          "spec.conversions[" + std::to_string(i) + "].preserve[" + std::to_string(j) + "]";
      const std::string what = "preserved field `" + where + "` (" + c.preserve[j] + ")";
      if (field.empty())  // kcp indexes field[0]: a panic, answered as an error
        return ConversionFailure{where, what,
                                 "runtime error: index out of range [0] with length 0"};
      if (field[0] == '.') field = field.substr(1);
      auto value = nestedField(original, splitPath(field));
      if (auto* error = std::get_if<std::string>(&value))
        return ConversionFailure{where, what,
                                 "error preserving fields: error getting field " + goQuote(field) +
                                     " to preserve: " + *error};
      if (const json* found = std::get<const json*>(value)) preserved[field] = *found;
    }
  }
  if (!preserved.empty()) {
    annotations[kPreserveAnnotationPrefix + originalVersion] = goJson(preserved);
    if (!converted.contains("metadata") || !converted["metadata"].is_object())
      converted["metadata"] = json::object();
    converted["metadata"]["annotations"] = std::move(annotations);
  }
  return converted;
}

std::vector<std::string> schemaProblems(const ApiConversion& conversion, const Crd& crd) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < conversion.conversions.size(); ++i) {
    const VersionConversion& c = conversion.conversions[i];
    const std::string at = "spec.conversions[" + std::to_string(i) + "]";
    const CrdVersion* version = crd.version(c.from);
    if (!version || version->schema.is_null()) {
      out.push_back(conversion.source + ": " + at + ".from: Invalid value: " + goQuote(c.from) +
                    ": unable to find structural schema for version");
      continue;
    }
    for (std::size_t j = 0; j < c.rules.size(); ++j) {
      const ConversionRule& r = c.rules[j];
      const std::string field = conversion.source + ": " + rulePath(i, j) + ".field";
      const json* cursor = &version->schema;
      std::string visited, problem;
      for (const std::string& step : splitPath(r.field)) {
        if (cursor->value("type", std::string()) != "object") {
          problem = "expected field " + goQuote(visited) + " to be an object";
          break;
        }
        visited += (visited.empty() ? "" : ".") + step;
        const json* next = nullptr;
        if (auto p = cursor->find("properties"); p != cursor->end() && p->contains(step))
          next = &(*p)[step];
        else if (auto a = cursor->find("additionalProperties");
                 a != cursor->end() && a->is_object() && a->contains("properties") &&
                 (*a)["properties"].contains(step))
          next = &(*a)["properties"][step];
        if (!next) {
          problem = "field " + goQuote(visited) + " doesn't exist";
          break;
        }
        cursor = next;
      }
      if (!problem.empty()) {
        out.push_back(field + ": Invalid value: " + goQuote(r.field) + ": " + problem);
        continue;
      }
      // A field CEL cannot type (no type, not int-or-string, not an embedded resource).
      const bool typed = !cursor->value("type", std::string()).empty() ||
                         cursor->value("x-kubernetes-int-or-string", false) ||
                         cursor->value("x-kubernetes-embedded-resource", false);
      if (!r.transformation.empty() && !typed)
        out.push_back(
            field +
            ": Internal error: error creating CEL environment: rule declared on "
            "schema that does not support validation rules type: '" +
            cursor->value("type", std::string()) + "' x-kubernetes-preserve-unknown-fields: '" +
            (cursor->value("x-kubernetes-preserve-unknown-fields", false) ? "true" : "false") +
            "'");
    }
  }
  return out;
}

}  // namespace convcheck::kcp
