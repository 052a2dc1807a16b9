#include "kube/cel/time_text.h"

#include <cstdio>

#include "kube/go/duration.h"

namespace convcheck::cel {

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civilFromDays(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

bool isLeap(std::int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int daysInMonth(std::int64_t y, int m) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && isLeap(y) ? 29 : days[m - 1];
}

bool digits(std::string_view s, std::size_t at, std::size_t n, int& out) {
  if (at + n > s.size()) return false;
  out = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

// "+05:30" / "-08:00" / "Z" at `at` to the end: offset seconds east of UTC.
std::optional<int> parseOffset(std::string_view s, std::size_t at) {
  if (at >= s.size()) return std::nullopt;
  if ((s[at] == 'Z' || s[at] == 'z') && at + 1 == s.size()) return 0;
  if (s[at] != '+' && s[at] != '-') return std::nullopt;
  int h = 0, m = 0;
  if (at + 6 != s.size() || !digits(s, at + 1, 2, h) || s[at + 3] != ':' ||
      !digits(s, at + 4, 2, m) || h > 23 || m > 59)
    return std::nullopt;
  const int off = h * 3600 + m * 60;
  return s[at] == '-' ? -off : off;
}

}  // namespace

std::optional<TimePoint> parseRfc3339(std::string_view s) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0;
  if (!digits(s, 0, 4, y) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
      !digits(s, 8, 2, d) || (s[10] != 'T' && s[10] != 't') || !digits(s, 11, 2, h) ||
      s[13] != ':' || !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, se))
    return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || se > 59)
    return std::nullopt;
  std::size_t at = 19;
  std::int32_t nanos = 0;
  if (at < s.size() && s[at] == '.') {
    ++at;
    int n = 0;
    while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
      if (n < 9) nanos = nanos * 10 + (s[at] - '0');
      ++n;
      ++at;
    }
    if (n == 0) return std::nullopt;
    for (int k = n; k < 9; ++k) nanos *= 10;
  }
  auto off = parseOffset(s, at);
  if (!off) return std::nullopt;
  TimePoint t;
  t.seconds = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * 86400 +
              h * 3600 + mi * 60 + se - *off;
  t.nanos = nanos;
  return t;
}

std::optional<TimePoint> parseDate(std::string_view s) {
  int y = 0, mo = 0, d = 0;
  if (s.size() != 10 || !digits(s, 0, 4, y) || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
      !digits(s, 8, 2, d) || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo))
    return std::nullopt;
  return TimePoint{daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * 86400,
                   0};
}

std::string formatRfc3339(const TimePoint& t) {
  std::int64_t days = t.seconds / 86400, rem = t.seconds % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  std::int64_t y;
  unsigned m, d;
  civilFromDays(days, y, m, d);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02d:%02d:%02d", static_cast<long long>(y), m, d,
                static_cast<int>(rem / 3600), static_cast<int>(rem / 60 % 60),
                static_cast<int>(rem % 60));
  std::string out = buf;
  if (t.nanos) {
    char frac[16];
    std::snprintf(frac, sizeof frac, ".%09d", t.nanos);
    std::string f = frac;
    while (f.back() == '0') f.pop_back();
    out += f;
  }
  return out + "Z";
}

std::string formatDurationNanos(std::int64_t nanos) {
  // Go prints sub-second durations in ms/µs/ns; whole ones in h, m, s.
  const bool neg = nanos < 0;
  const std::uint64_t u =
      neg ? 0 - static_cast<std::uint64_t>(nanos) : static_cast<std::uint64_t>(nanos);
  if (u == 0) return "0s";
  std::string out;
  auto frac = [](std::uint64_t v, std::uint64_t unit) {
    std::string s = std::to_string(v / unit);
    std::uint64_t r = v % unit;
    if (r) {
      std::string f = std::to_string(r);
      f = std::string(std::to_string(unit).size() - 1 - f.size(), '0') + f;
      while (!f.empty() && f.back() == '0') f.pop_back();
      s += "." + f;
    }
    return s;
  };
  if (u < 1000) {
    out = std::to_string(u) + "ns";
  } else if (u < 1000000) {
    out = frac(u, 1000) + "\xC2\xB5s";
  } else if (u < 1000000000) {
    out = frac(u, 1000000) + "ms";
  } else {
    const std::uint64_t h = u / 3600000000000ULL;
    const std::uint64_t m = u / 60000000000ULL % 60;
    const std::uint64_t rest = u % 60000000000ULL;
    if (h) out += std::to_string(h) + "h";
    if (h || m) out += std::to_string(m) + "m";
    out += frac(rest, 1000000000ULL) + "s";
  }
  return neg ? "-" + out : out;
}

std::optional<CivilTime> civilTime(const TimePoint& t, std::string_view zone) {
  int offset = 0;
  if (!zone.empty() && zone != "UTC" && zone != "Z") {
    std::string z(zone);
    if (z.size() == 5 && z[2] == ':') z = "+" + z;  // cel-go reads "02:00" as "+02:00"
    if (z.size() == 6 && (z[0] == '+' || z[0] == '-')) {
      auto off = parseOffset(z, 0);
      if (!off) return std::nullopt;
      offset = *off;
    } else {
      return std::nullopt;
    }
  }
  const std::int64_t local = t.seconds + offset;
  std::int64_t days = local / 86400, rem = local % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  CivilTime c{};
  unsigned m, d;
  civilFromDays(days, c.year, m, d);
  c.month = static_cast<int>(m);
  c.day = static_cast<int>(d);
  c.dayOfWeek = static_cast<int>(((days % 7) + 11) % 7);  // 1970-01-01 was a Thursday
  c.dayOfYear = static_cast<int>(days - daysFromCivil(c.year, 1, 1));
  c.hours = static_cast<int>(rem / 3600);
  c.minutes = static_cast<int>(rem / 60 % 60);
  c.seconds = static_cast<int>(rem % 60);
  c.nanos = t.nanos;
  return c;
}

}  // namespace convcheck::cel
