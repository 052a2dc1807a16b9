// Finds the causes of a failing property check (cause.h): one per rejected stage, one per
// differing path (normalised with the schema, so indices and map keys do not split a cause), one
// for JSON numbers parsed as float64. Used by the case executor on every failing result.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "properties/checks/finding.h"
#include "properties/checks/json_diff.h"

namespace convcheck {

// The openAPIV3Schema of a version of the kind, or nullptr when unknown.
using SchemaLookup = std::function<const nlohmann::json*(const std::string& version)>;

// The causes of `finding`, most severe first, without duplicates; never empty.
std::vector<Cause> causesOf(const Finding& finding, const SchemaLookup& schemaOf);

// `path` steps with array indices as [*] and keys the schema does not name (additionalProperties,
// x-kubernetes-preserve-unknown-fields, no schema below metadata's labels/annotations) as *.
// `schema` is the openAPIV3Schema of the object the path starts at (null: unknown).
std::string normalisedPath(const std::vector<PathStep>& steps, const nlohmann::json* schema);

// A path that comes as text ("spec.items[3].x", "spec.env[\"k\"]") normalised with the schema of
// `version`, as a differing path is: "spec.items[*].x", "spec.env.*".
std::string normalisedTextPath(const std::string& path, const SchemaLookup& schemaOf,
                               const std::string& version);

// The title of a float64 rounding cause: `expected` (an integer, or words for one) came back as
// `got`.
std::string float64Title(const nlohmann::json& expected, const nlohmann::json& got);

// The value the webhook was sent at `path` of the converted object `index` of `finding` and the
// value it answered there, when the answer rounded an integer beyond 2^53 as float64 does.
std::optional<std::pair<nlohmann::json, nlohmann::json>> float64RoundedAt(const Finding& finding,
                                                                          std::size_t index,
                                                                          const std::string& path);

// True when `got` is what a float64 parser makes of the integer `expected` (beyond 2^53).
bool isFloat64Rounding(const nlohmann::json& expected, const nlohmann::json& got);

}  // namespace convcheck
