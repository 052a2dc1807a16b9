#include "generators/format_check.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <mutex>
#include <optional>
#include <set>

#include <re2/re2.h>

#include "kube/go/duration.h"
#include "kube/go/go_net.h"
#include "kube/names/name_rules.h"

namespace convcheck {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// The expressions, each compiled on its first use only (hostname's Unicode classes alone take
// ~0.1 s to compile, and most runs need just one or two of them).
enum class Rx {
  Hostname,
  Uuid,
  Uuid3,
  Uuid4,
  Uuid5,
  Creditcard,
  Ssn,
  Hexcolor,
  Rgbcolor,
  Base64,
  Email,
  ScalaDuration,
  ScalaPart,
  UriScheme,
  Count
};

const RE2& rx(Rx which) {
  static constexpr const char* kPatterns[] = {
      R"(^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z0-9\p{S}\p{L}])(-?[a-zA-Z0-9\p{S}\p{L}]){1,62})$)",
      R"((?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$)",
      R"((?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$)",
      R"((?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$)",
      R"((?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$)",
      R"(^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$)",
      R"(^\d{3}[- ]?\d{2}[- ]?\d{4}$)",
      R"(^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$)",
      R"(^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$)",
      R"(^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$)",
      R"(^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$)",
      R"(^\s*(?:\d+\s*[A-Za-zµ]+\s*)+$)",
      R"(((\d+)\s*([A-Za-zµ]+)))",
      R"(^[A-Za-z][A-Za-z0-9+.\-]*:)",
  };
  static_assert(std::size(kPatterns) == static_cast<std::size_t>(Rx::Count));
  static std::array<std::once_flag, std::size(kPatterns)> once;
  static std::array<std::optional<RE2>, std::size(kPatterns)> compiled;
  const auto i = static_cast<std::size_t>(which);
  std::call_once(once[i], [i] { compiled[i].emplace(kPatterns[i]); });
  return *compiled[i];
}

bool parseCIDR(std::string_view s) {
  const std::size_t slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  const std::string_view ip = s.substr(0, slash), mask = s.substr(slash + 1);
  if (!goParseIP(ip)) return false;
  const bool v4 = ip.find(':') == std::string_view::npos;
  if (mask.empty() || mask.size() > 3) return false;
  int bits = 0;
  for (char c : mask) {
    if (!isDigit(c)) return false;
    bits = bits * 10 + (c - '0');
  }
  if (mask.size() > 1 && mask[0] == '0') return false;
  return bits <= (v4 ? 32 : 128);
}

bool parseMAC(std::string_view s) {
  if (s.size() < 14) return false;
  auto okCount = [](std::size_t n) { return n == 6 || n == 8 || n == 20; };
  if (s[2] == ':' || s[2] == '-') {
    if ((s.size() + 1) % 3 != 0 || !okCount((s.size() + 1) / 3)) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (i % 3 == 2) {
        if (s[i] != s[2]) return false;
      } else if (!isHex(s[i])) {
        return false;
      }
    }
    return true;
  }
  if (s[4] == '.') {
    if ((s.size() + 1) % 5 != 0 || !okCount(2 * (s.size() + 1) / 5)) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (i % 5 == 4) {
        if (s[i] != '.') return false;
      } else if (!isHex(s[i])) {
        return false;
      }
    }
    return true;
  }
  return false;
}

bool digitsOnly(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), isDigit);
}

int num(std::string_view s) {
  int v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}

int daysIn(int year, int month) {
  static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : d[month - 1];
}

// time.Parse("2006-01-02", s)
bool parseDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  if (!digitsOnly(s.substr(0, 4)) || !digitsOnly(s.substr(5, 2)) || !digitsOnly(s.substr(8, 2)))
    return false;
  const int y = num(s.substr(0, 4)), m = num(s.substr(5, 2)), d = num(s.substr(8, 2));
  return m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
}

// kube-openapi ParseDateTime: RFC 3339 with optional fraction, zone "Z", "±hh:mm" or "±hhmm", or
// no zone at all (ISO 8601 local time); the empty string parses as the zero time.
bool parseDateTime(std::string_view s) {
  if (s.empty()) return true;
  if (s.size() < 19 || !parseDate(s.substr(0, 10)) || s[10] != 'T') return false;
  const std::string_view t = s.substr(11);
  if (t[2] != ':' || t[5] != ':' || !digitsOnly(t.substr(0, 2)) || !digitsOnly(t.substr(3, 2)) ||
      !digitsOnly(t.substr(6, 2)))
    return false;
  if (num(t.substr(0, 2)) > 23 || num(t.substr(3, 2)) > 59 || num(t.substr(6, 2)) > 59)
    return false;
  std::string_view rest = t.substr(8);
  if (!rest.empty() && rest[0] == '.') {
    std::size_t i = 1;
    while (i < rest.size() && isDigit(rest[i])) ++i;
    if (i == 1 || i > 10) return false;
    rest = rest.substr(i);
  }
  if (rest.empty() || rest == "Z") return true;
  if (rest[0] != '+' && rest[0] != '-') return false;
  rest = rest.substr(1);
  std::string_view hh, mm;
  if (rest.size() == 5 && rest[2] == ':') {
    hh = rest.substr(0, 2);
    mm = rest.substr(3, 2);
  } else if (rest.size() == 4) {
    hh = rest.substr(0, 2);
    mm = rest.substr(2, 2);
  } else {
    return false;
  }
  return digitsOnly(hh) && digitsOnly(mm) && num(hh) <= 23 && num(mm) <= 59;
}

bool scalaDuration(std::string_view s) {
  const re2::StringPiece in(s.data(), s.size());
  if (!RE2::FullMatch(in, rx(Rx::ScalaDuration))) return false;
  static const std::vector<std::vector<std::string>> units = {
      {"ns", "nano"}, {"us", "µs", "micro"}, {"ms", "milli"}, {"s", "sec"},
      {"m", "min"},   {"h", "hr", "hour"},   {"d", "day"},    {"w", "wk", "week"}};
  re2::StringPiece input = in;
  std::string whole, digits, unit;
  bool ok = false;
  while (RE2::FindAndConsume(&input, rx(Rx::ScalaPart), &whole, &digits, &unit)) {
    std::string u;
    for (char c : unit) u += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& variants : units)
      for (std::size_t i = 0; i < variants.size(); ++i)
        if ((i + 1 == variants.size() && u.rfind(variants[i], 0) == 0) || u == variants[i])
          ok = true;
  }
  return ok;
}

bool isbn10(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == ' ' || c == '-'; }), s.end());
  if (s.size() != 10) return false;
  int sum = 0;
  for (int i = 0; i < 9; ++i) {
    if (!isDigit(s[i])) return false;
    sum += (i + 1) * (s[i] - '0');
  }
  if (s[9] == 'X')
    sum += 10 * 10;
  else if (isDigit(s[9]))
    sum += 10 * (s[9] - '0');
  else
    return false;
  return sum % 11 == 0;
}

bool isbn13(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == ' ' || c == '-'; }), s.end());
  if (s.size() != 13 || !digitsOnly(s)) return false;
  int sum = 0;
  for (int i = 0; i < 12; ++i) sum += (s[i] - '0') * (i % 2 == 0 ? 1 : 3);
  return (10 - sum % 10) % 10 == s[12] - '0';
}

bool creditCard(std::string_view s) {
  std::string digits;
  for (char c : s)
    if (isDigit(c)) digits += c;
  if (!RE2::FullMatch(digits, rx(Rx::Creditcard))) return false;
  int sum = 0;
  bool dbl = false;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    int d = *it - '0';
    if (dbl) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    dbl = !dbl;
  }
  return sum % 10 == 0;
}

// Go url.ParseRequestURI: an absolute URI or an absolute path, no control characters.
bool requestURI(std::string_view s) {
  if (s.empty()) return false;
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f || c == ' ') return false;
  if (s[0] == '/') return true;
  re2::StringPiece in(s.data(), s.size());
  if (!RE2::Consume(&in, rx(Rx::UriScheme))) return false;
  std::string_view rest(in.data(), in.size());
  if (rest.rfind("//", 0) == 0) {
    rest = rest.substr(2);
    const std::size_t end = rest.find_first_of("/?#");
    const std::string_view authority = rest.substr(0, end);
    const std::size_t at = authority.rfind('@');
    std::string_view host = at == std::string_view::npos ? authority : authority.substr(at + 1);
    if (!host.empty() && host[0] == '[') {
      const std::size_t close = host.find(']');
      if (close == std::string_view::npos) return false;
      const std::string_view literal = host.substr(1, close - 1);  // an IPv6 address
      if (literal.find(':') == std::string_view::npos || !goParseIP(literal)) return false;
      host = host.substr(close + 1);
      if (!host.empty() && (host[0] != ':' || !std::all_of(host.begin() + 1, host.end(), isDigit)))
        return false;
      return true;
    }
    const std::size_t colon = host.rfind(':');
    if (colon != std::string_view::npos &&
        !std::all_of(host.begin() + colon + 1, host.end(), isDigit))
      return false;
    return true;
  }
  return true;  // rootless paths are opaque URIs
}

}  // namespace

std::string normalizedFormat(std::string_view format) {
  std::string out;
  for (char c : format)
    if (c != '-') out += c;
  return out;
}

bool isStringFormat(std::string_view format) {
  static const std::set<std::string, std::less<>> f = {
      "bsonobjectid", "uri",        "email",    "hostname",     "ipv4",       "ipv6", "cidr",
      "mac",          "uuid",       "uuid3",    "uuid4",        "uuid5",      "isbn", "isbn10",
      "isbn13",       "creditcard", "ssn",      "hexcolor",     "rgbcolor",   "byte", "password",
      "date",         "duration",   "datetime", "k8sshortname", "k8slongname"};
  return f.count(normalizedFormat(format)) > 0;
}

bool isKnownFormat(std::string_view format) {
  const std::string n = normalizedFormat(format);
  return isStringFormat(n) || n == "int32" || n == "int64" || n == "float" || n == "double";
}

bool formatAccepts(std::string_view format, std::string_view value) {
  const std::string f = normalizedFormat(format);
  const re2::StringPiece v(value.data(), value.size());
  if (f == "bsonobjectid")
    return value.size() == 24 && std::all_of(value.begin(), value.end(), isHex);
  if (f == "uri") return requestURI(value);
  if (f == "email") return RE2::FullMatch(v, rx(Rx::Email));
  if (f == "hostname") {
    if (!RE2::PartialMatch(v, rx(Rx::Hostname)) || value.size() > 255) return false;
    std::size_t start = 0;
    while (true) {
      const std::size_t dot = value.find('.', start);
      if ((dot == std::string_view::npos ? value.size() : dot) - start > 63) return false;
      if (dot == std::string_view::npos) return true;
      start = dot + 1;
    }
  }
  if (f == "ipv4") return goParseIP(value).has_value() && value.find('.') != std::string_view::npos;
  if (f == "ipv6") return goParseIP(value).has_value() && value.find(':') != std::string_view::npos;
  if (f == "cidr") return parseCIDR(value);
  if (f == "mac") return parseMAC(value);
  if (f == "uuid") return RE2::PartialMatch(v, rx(Rx::Uuid));
  if (f == "uuid3") return RE2::PartialMatch(v, rx(Rx::Uuid3));
  if (f == "uuid4") return RE2::PartialMatch(v, rx(Rx::Uuid4));
  if (f == "uuid5") return RE2::PartialMatch(v, rx(Rx::Uuid5));
  if (f == "isbn") return isbn10(std::string(value)) || isbn13(std::string(value));
  if (f == "isbn10") return isbn10(std::string(value));
  if (f == "isbn13") return isbn13(std::string(value));
  if (f == "creditcard") return creditCard(value);
  if (f == "ssn") return value.size() == 11 && RE2::FullMatch(v, rx(Rx::Ssn));
  if (f == "hexcolor") return RE2::FullMatch(v, rx(Rx::Hexcolor));
  if (f == "rgbcolor") return RE2::FullMatch(v, rx(Rx::Rgbcolor));
  if (f == "byte") return RE2::FullMatch(v, rx(Rx::Base64));
  if (f == "date") return parseDate(value);
  if (f == "duration") return goParseDuration(value).has_value() || scalaDuration(value);
  if (f == "datetime") return parseDateTime(value);
  if (f == "k8sshortname") return isDns1035Label(value);
  if (f == "k8slongname") return isDns1123Subdomain(value);
  return true;  // password, numeric formats, formats kube-apiserver strips
}

}  // namespace convcheck
