#include "kube/names/field_errors.h"

#include "kube/go/go_format.h"

namespace convcheck {

using nlohmann::json;

std::string fieldErrorValue(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "\"null\"";  // field.Error prints a nil value as the string "null"
    case json::value_t::string:
      return goQuote(value.get_ref<const std::string&>());
    case json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return value.dump();
    case json::value_t::number_float:
      return goFloatV(value.get<double>());
    default:
      return goSharpV(value);
  }
}

std::string requiredValue(const std::string& detail) {
  return detail.empty() ? "Required value" : "Required value: " + detail;
}

std::string invalidValue(const json& value, const std::string& detail) {
  std::string out = "Invalid value: " + fieldErrorValue(value);
  if (!detail.empty()) out += ": " + detail;
  return out;
}

std::string unsupportedValue(const json& value, const std::vector<std::string>& supported) {
  std::string out = "Unsupported value: " + fieldErrorValue(value);
  if (supported.empty()) return out;
  out += ": supported values: ";
  for (std::size_t i = 0; i < supported.size(); ++i)
    out += (i == 0 ? "" : ", ") + goQuote(supported[i]);
  return out;
}

std::string duplicateValue(const json& value) {
  return "Duplicate value: " + fieldErrorValue(value);
}

std::string tooLong(long long maxLength) {
  return maxLength >= 0 ? "Too long: may not be longer than " + std::to_string(maxLength)
                        : "Too long: value is too long";
}

std::string tooMany(long long actual, long long max) {
  std::string out = "Too many";
  if (actual >= 0) out += ": " + std::to_string(actual);
  out +=
      max >= 0 ? ": must have at most " + std::to_string(max) + " items" : ": has too many items";
  return out;
}

std::string inBody(const std::string& path, const std::string& words) {
  return path + " in body " + words;
}

std::vector<std::string> supportedValues(const std::vector<json>& values) {
  std::vector<std::string> out;
  for (const auto& v : values)
    out.push_back(v.is_string() ? v.get<std::string>()
                                : v.dump(-1, ' ', false, json::error_handler_t::replace));
  return out;
}

}  // namespace convcheck
