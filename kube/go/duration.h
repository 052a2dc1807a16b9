// Go duration strings ("30s", "500ms", "1m30s") parsed and printed as Go's time package does.
// Used by the CLI (--timeout), HttpsClient (?timeout= query), reports and the schema format
// checks (format: duration).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace convcheck {

// time.ParseDuration: nanoseconds, negative allowed, digits below a nanosecond dropped as Go drops
// them; nullopt (and, when `whyNot` is given, a one-line reason naming the input) where Go returns
// an error.
std::optional<std::int64_t> goParseDuration(std::string_view text, std::string* whyNot = nullptr);

// Parses a Go duration (time.ParseDuration grammar: optional '+', then one or more
// <decimal><unit> with unit ns, us, µs, ms, s, m, h; "0" alone is allowed). convcheck's durations
// are timeouts, so negative values and values finer than a millisecond are rejected too.
// On rejection returns nullopt and, when `whyNot` is given, a one-line reason naming the input.
std::optional<std::chrono::milliseconds> parseDuration(std::string_view text,
                                                       std::string* whyNot = nullptr);

// Formats exactly like Go's time.Duration.String(): "0s", "500ms", "1.5s", "1m30s", "2h0m0s",
// "-1.5s".
std::string formatGoDuration(std::chrono::milliseconds duration);

}  // namespace convcheck
