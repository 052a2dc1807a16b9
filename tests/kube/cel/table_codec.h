// The tagged JSON form of CEL values shared by the agreement table, the cel-spec conformance data
// and the npm oracle's answers ({"int": "7"}, {"list": [...]}, "error"). Used by the kube/cel
// tests.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "kube/cel/value.h"

namespace convcheck::cel::testing {

nlohmann::json encode(const Value& v);
// True when two encodings name the same value (doubles by value, NaN equal to NaN).
bool sameEncoding(const nlohmann::json& a, const nlohmann::json& b);
// A value from its encoding (for bindings); an error value when it cannot be decoded.
Value decode(const nlohmann::json& e, std::string& storage);

}  // namespace convcheck::cel::testing
