#include "kube/apiserver/update_validation.h"

#include <re2/re2.h>

#include <fmt/format.h>

#include "kube/go/go_format.h"
#include "kube/go/utf8.h"

namespace convcheck {

using nlohmann::json;

namespace {

std::string errorPath(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// field.Error's value as ErrorBody prints it: %q for strings, %v for numbers and booleans, %#v
// for the rest.
std::string errorValue(const json& v) {
  if (v.is_string()) return goQuote(v.get<std::string>());
  if (v.is_number_float()) return goFloatV(v.get<double>());
  if (v.is_number() || v.is_boolean()) return v.dump();
  if (v.is_null()) return "\"null\"";
  return goSharpV(v);
}

// A JSON number as kube-openapi prints a schema bound (%v of float64 or int64).
std::string errorBound(const json& v) {
  return v.is_number_float() ? goFloatV(v.get<double>()) : v.dump();
}

double asNumber(const json& v) { return v.get<double>(); }

bool sameEnumValue(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) return asNumber(a) == asNumber(b);
  return a == b;
}

class ValidationWalk {
 public:
  std::vector<FieldError> errors;

  void value(const json& node, const json& v, const std::string& path) {
    if (!node.is_object()) return;
    enumeration(node, v, path);
    if (v.is_string()) text(node, v, path);
    if (v.is_number()) range(node, v, path);
    if (v.is_object()) fields(node, v, path);
    if (v.is_array()) items(node, v, path);
  }

 private:
  void add(const std::string& path, const std::string& type, const std::string& body) {
    errors.push_back({path, type, fmt::format("{}: {}", path, body)});
  }

  void enumeration(const json& node, const json& v, const std::string& path) {
    auto values = node.find("enum");
    if (values == node.end() || !values->is_array()) return;
    for (const auto& allowed : *values)
      if (sameEnumValue(allowed, v)) return;
    std::string supported;
    for (const auto& allowed : *values)
      supported += (supported.empty() ? "" : ", ") +
                   goQuote(allowed.is_string() ? allowed.get<std::string>() : allowed.dump());
    add(path, "Unsupported value",
        fmt::format("Unsupported value: {}{}", errorValue(v),
                    supported.empty() ? "" : ": supported values: " + supported));
  }

  void text(const json& node, const json& v, const std::string& path) {
    const std::string& s = v.get_ref<const std::string&>();
    const auto length = static_cast<long long>(runeCount(s));
    if (auto max = node.find("maxLength");
        max != node.end() && max->is_number() && length > max->get<long long>())
      add(path, "Too long",
          fmt::format("Too long: may not be more than {} {}", max->dump(),
                      max->get<long long>() == 1 ? "byte" : "bytes"));
    if (auto min = node.find("minLength");
        min != node.end() && min->is_number() && length < min->get<long long>())
      add(path, "Invalid value",
          fmt::format("Invalid value: {}: {} in body should be at least {} chars long",
                      errorValue(v), path, min->dump()));
    if (auto pattern = node.find("pattern"); pattern != node.end() && pattern->is_string()) {
      RE2 re(pattern->get<std::string>(), RE2::Quiet);
      if (re.ok() && !RE2::PartialMatch(s, re))
        add(path, "Invalid value",
            fmt::format("Invalid value: {}: {} in body should match '{}'", errorValue(v), path,
                        pattern->get<std::string>()));
    }
  }

  void range(const json& node, const json& v, const std::string& path) {
    const double x = asNumber(v);
    if (auto max = node.find("maximum"); max != node.end() && max->is_number()) {
      const bool exclusive = node.value("exclusiveMaximum", false) == true;
      if (exclusive ? x >= asNumber(*max) : x > asNumber(*max))
        add(path, "Invalid value",
            fmt::format("Invalid value: {}: {} in body should be less than {}{}", errorValue(v),
                        path, exclusive ? "" : "or equal to ", errorBound(*max)));
    }
    if (auto min = node.find("minimum"); min != node.end() && min->is_number()) {
      const bool exclusive = node.value("exclusiveMinimum", false) == true;
      if (exclusive ? x <= asNumber(*min) : x < asNumber(*min))
        add(path, "Invalid value",
            fmt::format("Invalid value: {}: {} in body should be greater than {}{}", errorValue(v),
                        path, exclusive ? "" : "or equal to ", errorBound(*min)));
    }
  }

  void fields(const json& node, const json& v, const std::string& path) {
    auto properties = node.find("properties");
    if (auto required = node.find("required"); required != node.end() && required->is_array())
      for (const auto& name : *required)
        if (name.is_string() && !v.contains(name.get<std::string>()))
          add(errorPath(path, name.get<std::string>()), "Required value", "Required value");
    auto extra = node.find("additionalProperties");
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (path.empty() &&
          (it.key() == "apiVersion" || it.key() == "kind" || it.key() == "metadata"))
        continue;
      if (properties != node.end() && properties->is_object() && properties->contains(it.key()))
        value((*properties)[it.key()], it.value(), errorPath(path, it.key()));
      else if (extra != node.end() && extra->is_object())
        value(*extra, it.value(), errorPath(path, it.key()));
    }
  }

  void items(const json& node, const json& v, const std::string& path) {
    if (auto max = node.find("maxItems"); max != node.end() && max->is_number() &&
                                          static_cast<long long>(v.size()) > max->get<long long>())
      add(path, "Too many",
          fmt::format("Too many: {}: must have at most {} items", v.size(), max->dump()));
    auto each = node.find("items");
    if (each == node.end() || !each->is_object()) return;
    for (std::size_t i = 0; i < v.size(); ++i) value(*each, v[i], fmt::format("{}[{}]", path, i));
  }
};

}  // namespace

std::vector<FieldError> updateValidationErrors(const json& object, const json& schema) {
  ValidationWalk walk;
  walk.value(schema, object, "");
  return std::move(walk.errors);
}

}  // namespace convcheck
