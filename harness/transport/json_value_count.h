// A cheap upper-bound estimate of how many JSON values a response body holds, without parsing it.
// Used by the HTTPS client for the response complexity cap (TransportOptions::maxResponseValues).
#pragma once

#include <cstddef>
#include <string_view>

namespace convcheck {

// Counts '{', '[' and ',' outside JSON string literals, plus one: every value of a JSON text is a
// container opening or follows a comma, except the first. Not JSON-validating; any bytes give a
// number (for YAML it counts flow collections only). Stops counting once `stopAt` is exceeded.
std::size_t approximateJsonValues(std::string_view body, std::size_t stopAt);

}  // namespace convcheck
