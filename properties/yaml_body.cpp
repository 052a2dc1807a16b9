#include "properties/yaml_body.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include "properties/go_format.h"

namespace convcheck {
namespace {

using nlohmann::json;

std::optional<json> resolveInt(std::string plain) {
  std::string digits;
  for (char c : plain)
    if (c != '_') digits += c;
  if (digits.empty()) return std::nullopt;
  bool negative = false;
  std::string_view s = digits;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    s.remove_prefix(2);
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
    base = 8;
    s.remove_prefix(2);
  } else if (s.size() > 1 && s[0] == '0') {
    base = 8;
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  std::uint64_t magnitude = 0;
  auto res = std::from_chars(s.data(), s.data() + s.size(), magnitude, base);
  if (res.ec != std::errc() || res.ptr != s.data() + s.size()) return std::nullopt;
  if (!negative && magnitude <= std::uint64_t(INT64_MAX)) return json(std::int64_t(magnitude));
  if (negative && magnitude <= std::uint64_t(INT64_MAX) + 1)
    return json(magnitude == std::uint64_t(INT64_MAX) + 1 ? INT64_MIN : -std::int64_t(magnitude));
  if (!negative) return json(static_cast<double>(magnitude));  // uint64 → float64 in JSON
  return std::nullopt;
}

// Go's json.Marshal writes an integral float64 below 1e21 without a fraction; mirror that so the
// JSON decoder sees the same literal.
json goFloat(double d) {
  if (std::trunc(d) == d && std::fabs(d) < 9.2e18) return json(static_cast<std::int64_t>(d));
  return json(d);
}

// go-yaml v2's float syntax: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool isYamlFloat(std::string_view s) {
  auto digits = [&](std::size_t& i) {
    std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits(i)) return false;
  } else {
    if (!digits(i)) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits(i);
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits(i)) return false;
  }
  return i == s.size();
}

json resolvePlain(const std::string& s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  for (const char* t : {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})
    if (s == t) return true;
  for (const char* f : {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})
    if (s == f) return false;
  if (auto i = resolveInt(s)) return *i;
  std::string noUnderscore;
  for (char c : s)
    if (c != '_') noUnderscore += c;
  if (isYamlFloat(noUnderscore)) return goFloat(std::strtod(noUnderscore.c_str(), nullptr));
  return s;
}

json toJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      if (node.Tag() == "!") return node.Scalar();  // quoted
      return resolvePlain(node.Scalar());
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const auto& item : node) out.push_back(toJson(item));
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& kv : node) {
        json key = toJson(kv.first);
        std::string k = key.is_string() ? key.get<std::string>() : key.dump();
        out[k] = toJson(kv.second);
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace

bool looksLikeJson(std::string_view body) {
  std::string trimmed = goTrimSpace(body);
  return !trimmed.empty() && trimmed[0] == '{';
}

YamlAsJson yamlToJson(std::string_view body) {
  YamlAsJson out;
  try {
    YAML::Node node = YAML::Load(std::string(body));
    out.json = toJson(node).dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (const YAML::Exception& e) {
    out.error = "error converting YAML to JSON: yaml: line " + std::to_string(e.mark.line + 1) +
                ": " + e.msg;
  }
  return out;
}

}  // namespace convcheck
