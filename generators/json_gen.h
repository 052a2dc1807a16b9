// Arbitrary JSON for fields kept by x-kubernetes-preserve-unknown-fields, and names for unknown
// fields. Used by schema_gen.
#pragma once

#include <string>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

namespace convcheck {

// Any JSON value (objects, arrays, strings, integers incl. int64 extremes, fractional doubles,
// booleans, null) nested at most `maxDepth` containers deep, of up to 3 members each; with
// `longShapes` (from kLongFromSize on) one value in four nests 2 to 5 levels deeper, and one
// container in kLongOneIn holds 4 to 24 members. `allowNull` controls the top value.
rc::Gen<nlohmann::json> arbitraryJson(int maxDepth, bool allowNull, bool longShapes = false);

// Names for unknown fields: camelCase words, "x-" prefixed, dotted, non-ASCII.
rc::Gen<std::string> unknownFieldNames();

}  // namespace convcheck
