// A cheap look at how many JSON values a response body holds and how deeply it nests, without
// parsing it. Used by the HTTPS client for the response complexity and nesting caps.
#pragma once

#include <cstddef>
#include <string_view>

namespace convcheck {

struct JsonShape {
  std::size_t values = 0;  // '{', '[' and ',' outside string literals, plus one (an upper bound)
  std::size_t depth = 0;   // deepest nesting of '{' and '[' outside string literals
};

// Not JSON-validating: any bytes give an answer (for YAML it sees flow collections only). Stops
// early once `values` exceeds stopAtValues or `depth` exceeds stopAtDepth.
JsonShape approximateJsonShape(std::string_view body, std::size_t stopAtValues,
                               std::size_t stopAtDepth);

}  // namespace convcheck
