// Go's fmt and strings behaviour that kube-apiserver's error messages depend on: %q, %T of
// unstructured values, %v / %#v of values, strings.TrimSpace. Used by the API-server model.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace convcheck {

// strconv.Quote / fmt %q: double-quoted, `"` and `\` escaped, \a \b \f \n \r \t \v short forms,
// other controls as \xNN, non-printable runes as \uNNNN / \UNNNNNNNN, each invalid UTF-8 byte as
// \xNN. Printability of non-ASCII runes follows unicode.IsPrint for the categories that matter in
// practice (C1 controls, format characters, non-ASCII spaces, private use, noncharacters); other
// unassigned code points are treated as printable (approximation).
std::string goQuote(std::string_view s);

// fmt %T of a value decoded into interface{} by Go's JSON decoder: "<nil>", "bool", "int64",
// "float64", "string", "[]interface {}", "map[string]interface {}".
std::string goTypeName(const nlohmann::json& v);

// fmt %v of a float64: strconv 'g' with the shortest precision (e-notation when the decimal
// exponent is < -4 or >= 6, with at least two exponent digits): 1.5, 100000, 1e+06, 1e-05.
std::string goFloatV(double d);

// fmt %#v of a value decoded into interface{}: 5, 1.5, "s", true, interface {}(nil),
// []interface {}{1, "x"}, map[string]interface {}{"a":1} (keys sorted, as fmt sorts maps).
std::string goSharpV(const nlohmann::json& v);

// strings.TrimSpace: removes leading and trailing Unicode white space (ASCII \t \n \v \f \r and
// space, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
std::string goTrimSpace(std::string_view s);

}  // namespace convcheck
