#include "kube/go/duration.h"

#include <cstdint>
#include <limits>

namespace convcheck {
namespace {

constexpr std::uint64_t kNanosPerMilli = 1'000'000;
constexpr std::uint64_t kMaxNanos = std::uint64_t{1} << 63;  // Go's int64 Duration limit

bool isDigit(char c) { return c >= '0' && c <= '9'; }

std::optional<std::uint64_t> unitNanos(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1'000;  // us, µs, μs
  if (unit == "ms") return kNanosPerMilli;
  if (unit == "s") return 1'000'000'000;
  if (unit == "m") return 60'000'000'000;
  if (unit == "h") return 3'600'000'000'000;
  return std::nullopt;
}

template <typename T>
std::optional<T> reject(std::string* whyNot, std::string message) {
  if (whyNot != nullptr) *whyNot = std::move(message);
  return std::nullopt;
}

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

const char kShape[] =
    " (expected a number and a unit ns, us, ms, s, m or h, e.g. 30s, 500ms, 1m30s)";

// time.ParseDuration's grammar and range, as a magnitude and a sign.
struct ParsedDuration {
  std::uint64_t nanos = 0;
  bool negative = false;
  bool belowNanosecond = false;  // fraction digits finer than a nanosecond (Go drops them)
};

std::optional<ParsedDuration> parse(std::string_view text, std::string* whyNot) {
  ParsedDuration out;
  std::string_view s = text;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    out.negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return out;
  if (s.empty()) return reject<ParsedDuration>(whyNot, "invalid duration " + quoted(text) + kShape);

  const auto outOfRange = [&] {
    return reject<ParsedDuration>(whyNot, "duration " + quoted(text) + " is out of range");
  };
  std::uint64_t total = 0;
  while (!s.empty()) {
    if (!(s.front() == '.' || isDigit(s.front()))) {
      return reject<ParsedDuration>(whyNot, "invalid duration " + quoted(text) + kShape);
    }
    std::uint64_t whole = 0;
    bool overflow = false;
    std::size_t i = 0;
    for (; i < s.size() && isDigit(s[i]); ++i) {  // Go's leadingInt: at most 2^63
      if (whole > kMaxNanos / 10) overflow = true;
      if (!overflow) whole = whole * 10 + static_cast<std::uint64_t>(s[i] - '0');
      if (whole > kMaxNanos) overflow = true;
    }
    if (overflow) return outOfRange();
    const bool digitsBefore = i > 0;
    s.remove_prefix(i);
    std::string_view fraction;
    if (!s.empty() && s.front() == '.') {
      s.remove_prefix(1);
      std::size_t j = 0;
      while (j < s.size() && isDigit(s[j])) ++j;
      fraction = s.substr(0, j);
      s.remove_prefix(j);
    }
    if (!digitsBefore && fraction.empty()) {
      return reject<ParsedDuration>(whyNot, "invalid duration " + quoted(text) + kShape);
    }
    std::size_t u = 0;
    while (u < s.size() && s[u] != '.' && !isDigit(s[u])) ++u;
    if (u == 0) {
      return reject<ParsedDuration>(whyNot, "missing unit in duration " + quoted(text) + kShape);
    }
    const std::string_view unitText = s.substr(0, u);
    s.remove_prefix(u);
    const auto unit = unitNanos(unitText);
    if (!unit) {
      return reject<ParsedDuration>(whyNot, "unknown unit " + quoted(unitText) + " in duration " +
                                                quoted(text) + " (use ns, us, ms, s, m or h)");
    }
    if (whole > kMaxNanos / *unit) return outOfRange();
    std::uint64_t part = whole * *unit;
    // Exact fractional part: digits * unit / 10^len, computed digit by digit.
    std::uint64_t scale = *unit;
    std::uint64_t fractionNanos = 0;
    for (char c : fraction) {
      const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
      if (scale % 10 != 0) {  // this digit is below a nanosecond
        out.belowNanosecond = out.belowNanosecond || digit != 0;
        continue;
      }
      scale /= 10;
      fractionNanos += digit * scale;
    }
    part += fractionNanos;
    if (part > kMaxNanos || total > kMaxNanos - part) return outOfRange();
    total += part;
  }
  // Go's int64: down to -2^63, up to 2^63-1.
  if (total > kMaxNanos || (total == kMaxNanos && !out.negative)) return outOfRange();
  out.nanos = total;
  return out;
}

}  // namespace

std::optional<std::int64_t> goParseDuration(std::string_view text, std::string* whyNot) {
  const auto parsed = parse(text, whyNot);
  if (!parsed) return std::nullopt;
  if (!parsed->negative) return static_cast<std::int64_t>(parsed->nanos);
  return static_cast<std::int64_t>(std::uint64_t{0} - parsed->nanos);
}

std::optional<std::chrono::milliseconds> parseDuration(std::string_view text, std::string* whyNot) {
  using Result = std::chrono::milliseconds;
  const auto parsed = parse(text, whyNot);
  if (!parsed) return std::nullopt;
  if (parsed->nanos >= kMaxNanos) {
    return reject<Result>(whyNot, "duration " + quoted(text) + " is out of range");
  }
  if (parsed->negative && parsed->nanos > 0) {
    return reject<Result>(whyNot,
                          "duration " + quoted(text) + " is negative (a timeout must be >= 0)");
  }
  if (parsed->belowNanosecond || parsed->nanos % kNanosPerMilli != 0) {
    return reject<Result>(whyNot, "duration " + quoted(text) + " is finer than a millisecond");
  }
  return Result{static_cast<std::int64_t>(parsed->nanos / kNanosPerMilli)};
}

std::string formatGoDuration(std::chrono::milliseconds duration) {
  const std::int64_t ms = duration.count();
  if (ms == 0) return "0s";
  const bool negative = ms < 0;
  // Magnitude in milliseconds, safe for the most negative value.
  const std::uint64_t magnitude =
      negative ? std::uint64_t{0} - static_cast<std::uint64_t>(ms) : static_cast<std::uint64_t>(ms);
  std::string out = negative ? "-" : "";
  if (magnitude < 1000) return out + std::to_string(magnitude) + "ms";

  const std::uint64_t wholeSeconds = magnitude / 1000;
  std::string fraction = std::to_string(1000 + magnitude % 1000).substr(1);  // three digits
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  std::string seconds = std::to_string(wholeSeconds % 60);
  if (!fraction.empty()) seconds += "." + fraction;
  const std::uint64_t totalMinutes = wholeSeconds / 60;
  if (totalMinutes == 0) return out + seconds + "s";
  const std::uint64_t hours = totalMinutes / 60;
  if (hours > 0) out += std::to_string(hours) + "h";
  return out + std::to_string(totalMinutes % 60) + "m" + seconds + "s";
}

}  // namespace convcheck
