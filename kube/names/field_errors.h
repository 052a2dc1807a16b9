// kube-apiserver's field errors as its messages read them (apimachinery util/validation/field,
// and apiextensions' translation of OpenAPI schema failures into them): "Required value",
// "Invalid value: \"x\": <detail>", "Unsupported value: \"x\": supported values: \"a\", \"b\"",
// "Too long: may not be longer than 50", ... Used by the generators' validity checks, whose
// messages every schema-valid finding shows.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

// A value as field.Error prints one decoded from JSON: %v for numbers and booleans, %q for a
// string, "null" for null, %#v otherwise (map[string]interface {}{...}).
std::string fieldErrorValue(const nlohmann::json& value);

// The bodies of field.Required(path, detail), field.Invalid(path, value, detail),
// field.NotSupported(path, value, supported) (each supported value quoted as Go quotes it),
// field.Duplicate(path, value), field.TooLongMaxLength(path, value, max) ("Too long: may not be
// longer than N") and field.TooMany(path, actual, max): what follows "<path>: ".
std::string requiredValue(const std::string& detail = "");
std::string invalidValue(const nlohmann::json& value, const std::string& detail);
std::string unsupportedValue(const nlohmann::json& value,
                             const std::vector<std::string>& supported);
std::string duplicateValue(const nlohmann::json& value);
std::string tooLong(long long maxLength);
std::string tooMany(long long actual, long long max);

// The detail of an OpenAPI schema failure at `path` as kube-openapi words it, e.g. "spec.port in
// body should match '^[0-9]+$'": "<path> in body " + `words`.
std::string inBody(const std::string& path, const std::string& words);

// The supported values of an enum as apiextensions lists them: strings as they are, any other
// value as its JSON.
std::vector<std::string> supportedValues(const std::vector<nlohmann::json>& values);

}  // namespace convcheck
