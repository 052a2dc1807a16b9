// Objects as CEL rules see them: a JSON value viewed in place through its schema (integers as
// int, numbers as double, strings of format duration/date-time/byte as durations, timestamps and
// bytes, objects with properties as objects, maps, set and map lists), as kube-apiserver's
// UnstructuredToVal does; and CEL results back to JSON as cel-go converts them.
// Used by the validation rules and the kcp converter.
#pragma once

#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "kube/cel/schema.h"
#include "kube/cel/value.h"

namespace convcheck::cel {

// A view of `value` (which must outlive every Value taken from it) typed by `schema` (null: as
// Kubernetes types unknown fields, by the JSON alone).
Value jsonValue(const nlohmann::json& value, const CelSchema* schema);

// cel-go's conversion of a result to JSON (google.protobuf.Value): integers beyond ±(2^53−1)
// become strings, bytes base64, durations "1.5s", timestamps RFC 3339. An error message for
// values JSON cannot hold (optional, opaque, NaN, maps with non-string keys, errors).
std::variant<nlohmann::json, std::string> toJson(const Value& value);

}  // namespace convcheck::cel
