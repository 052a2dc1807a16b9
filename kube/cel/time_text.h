// Timestamps and durations as CEL reads and writes them: RFC 3339 text (Go's time.RFC3339Nano),
// Go duration text, civil dates of a point in time in UTC or at a fixed offset.
// Used by the standard library's conversions and accessors and by the JSON views (date-time).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace convcheck::cel {

// CEL's timestamp range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
inline constexpr std::int64_t kMinTimestampSeconds = -62135596800;
inline constexpr std::int64_t kMaxTimestampSeconds = 253402300799;

struct TimePoint {
  std::int64_t seconds = 0;  // since the Unix epoch
  std::int32_t nanos = 0;
};

// RFC 3339 with a time zone offset or Z, fractional seconds optional; nullopt when not one.
std::optional<TimePoint> parseRfc3339(std::string_view text);
// A date alone (format: date), at midnight UTC.
std::optional<TimePoint> parseDate(std::string_view text);
// Go's RFC3339Nano in UTC: fractional seconds without trailing zeros.
std::string formatRfc3339(const TimePoint& t);

// Go's time.Duration.String() for nanoseconds ("1h2m3.5s", "0s").
std::string formatDurationNanos(std::int64_t nanos);

struct CivilTime {
  std::int64_t year;
  int month;      // 1..12
  int day;        // 1..31
  int dayOfWeek;  // 0 = Sunday
  int dayOfYear;  // 0-based
  int hours, minutes, seconds;
  std::int32_t nanos;
};

// The civil time of `t` at `zone`: "", "UTC", "Z" or a fixed offset "+05:30" / "-08:00";
// nullopt for a zone it cannot read (IANA names are not supported).
std::optional<CivilTime> civilTime(const TimePoint& t, std::string_view zone);

}  // namespace convcheck::cel
