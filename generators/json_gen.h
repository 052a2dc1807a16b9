// Arbitrary JSON for fields kept by x-kubernetes-preserve-unknown-fields, and names for unknown
// fields. Used by schema_gen.
#pragma once

#include <string>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

namespace convcheck {

// Any JSON value (objects, arrays, strings, integers incl. int64 extremes, fractional doubles,
// booleans, null) nested at most `maxDepth` containers deep. `allowNull` controls the top value.
rc::Gen<nlohmann::json> arbitraryJson(int maxDepth, bool allowNull);

// Names for unknown fields: camelCase words, "x-" prefixed, dotted, non-ASCII.
rc::Gen<std::string> unknownFieldNames();

}  // namespace convcheck
