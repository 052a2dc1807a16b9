#include "generators/format_gen.h"

#include <cstdio>
#include <functional>
#include <vector>

#include "generators/format_check.h"

namespace convcheck {

namespace {

using Pick = std::function<std::string(rc::Random&)>;

// A generator that shrinks to `simplest`.
rc::Gen<std::string> fromPick(std::string simplest, Pick pick) {
  return rc::Gen<std::string>([simplest, pick](const rc::Random& random, int) {
    rc::Random r = random;
    std::string v = pick(r);
    if (v == simplest) return rc::shrinkable::just(v);
    return rc::shrinkable::just(v, rc::seq::just(rc::shrinkable::just(simplest)));
  });
}

std::uint64_t below(rc::Random& r, std::uint64_t n) { return n == 0 ? 0 : r.next() % n; }

std::string fmt(const char* f, auto... args) {
  char buf[128];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

std::string hex(rc::Random& r, int n, bool upper = false) {
  static constexpr char lo[] = "0123456789abcdef", up[] = "0123456789ABCDEF";
  std::string s;
  for (int i = 0; i < n; ++i) s += (upper ? up : lo)[below(r, 16)];
  return s;
}

std::string digits(rc::Random& r, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += static_cast<char>('0' + below(r, 10));
  return s;
}

int daysIn(int y, int m) {
  static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0) ? 29 : d[m - 1];
}

std::string date(rc::Random& r) {
  const int y = 1970 + static_cast<int>(below(r, 130)), m = 1 + static_cast<int>(below(r, 12));
  const int d = below(r, 8) == 0 ? daysIn(y, m) : 1 + static_cast<int>(below(r, daysIn(y, m)));
  return fmt("%04d-%02d-%02d", y, m, d);
}

std::string timeOfDay(rc::Random& r) {
  return fmt("%02d:%02d:%02d", static_cast<int>(below(r, 24)), static_cast<int>(below(r, 60)),
             static_cast<int>(below(r, 60)));
}

std::string dateTime(rc::Random& r, bool canonical) {
  std::string s = date(r) + "T" + timeOfDay(r);
  if (canonical) return s + "Z";
  switch (below(r, 6)) {
    case 0:
      s += "." + digits(r, 1 + static_cast<int>(below(r, 9)));
      break;
    case 1:
      s += "." + digits(r, 3);
      break;
    default:
      break;
  }
  switch (below(r, 5)) {
    case 0:
      return s + fmt("%c%02d:%02d", below(r, 2) ? '+' : '-', static_cast<int>(below(r, 15)),
                     below(r, 2) ? 30 : 0);
    default:
      return s + "Z";
  }
}

std::string ipv4(rc::Random& r) {
  return fmt("%d.%d.%d.%d", static_cast<int>(below(r, 256)), static_cast<int>(below(r, 256)),
             static_cast<int>(below(r, 256)), static_cast<int>(below(r, 256)));
}

std::string ipv6(rc::Random& r) {
  std::vector<std::string> g;
  for (int i = 0; i < 8; ++i)
    g.push_back(below(r, 3) == 0 ? "0" : hex(r, 1 + static_cast<int>(below(r, 4))));
  switch (below(r, 4)) {
    case 0: {  // compressed run of zero groups
      const int start = static_cast<int>(below(r, 7)),
                len = 1 + static_cast<int>(below(r, 8 - start));
      std::string s;
      for (int i = 0; i < start; ++i) s += (i ? ":" : "") + g[i];
      s += "::";
      for (int i = start + len; i < 8; ++i) s += g[i] + (i < 7 ? ":" : "");
      return s;
    }
    case 1:
      return "::ffff:" + ipv4(r);
    case 2:
      return below(r, 2) ? "::1" : "fe80::" + hex(r, 4);
    default: {
      std::string s;
      for (int i = 0; i < 8; ++i) s += (i ? ":" : "") + g[i];
      return s;
    }
  }
}

std::string hostname(rc::Random& r) {
  static constexpr const char* kLabels[] = {"api",     "www",      "svc",       "node-1", "a",
                                            "cluster", "internal", "eu-west-1", "x9"};
  static constexpr const char* kTlds[] = {"com", "io", "net", "local", "example", "dev"};
  std::string s;
  const int labels = static_cast<int>(below(r, 3));
  for (int i = 0; i < labels; ++i) s += std::string(kLabels[below(r, 9)]) + ".";
  // kube-openapi's hostname pattern has no hyphen inside a single-label name ("node-1" fails).
  static constexpr const char* kSingle[] = {"localhost", "api", "www", "x9", "svc"};
  if (labels == 0 && below(r, 2)) return kSingle[below(r, 5)];
  return s + "example." + kTlds[below(r, 6)];
}

std::string uuid(rc::Random& r, char version) {
  std::string third = version ? std::string(1, version) + hex(r, 3) : hex(r, 4);
  std::string fourth =
      version == '3' || !version ? hex(r, 4) : std::string(1, "89ab"[below(r, 4)]) + hex(r, 3);
  const bool upper = below(r, 8) == 0;
  std::string s = hex(r, 8, upper) + "-" + hex(r, 4, upper) + "-" + third + "-" + fourth + "-" +
                  hex(r, 12, upper);
  return s;
}

std::string base64(rc::Random& r) {
  static constexpr char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const int bytes = 1 + static_cast<int>(below(r, 48));
  std::string s;
  const int full = bytes / 3, rest = bytes % 3;
  for (int i = 0; i < full * 4; ++i) s += a[below(r, 64)];
  if (rest == 1) s += std::string{a[below(r, 64)], a[below(r, 4) * 16]} + "==";
  if (rest == 2) s += std::string{a[below(r, 64)], a[below(r, 64)], a[below(r, 16) * 4]} + "=";
  return s;
}

std::string duration(rc::Random& r) {
  static constexpr const char* kUnits[] = {"h", "m", "s", "ms", "us", "ns"};
  switch (below(r, 6)) {
    case 0:
      return "0s";
    case 1:
      return std::to_string(below(r, 1000)) + kUnits[below(r, 6)];
    case 2:
      return fmt("%d.%ds", static_cast<int>(below(r, 100)), static_cast<int>(below(r, 10)));
    case 3:
      return "-" + std::to_string(1 + below(r, 60)) + "m";
    default: {
      std::string s;
      const std::size_t first = below(r, 3);
      for (std::size_t u = first; u < first + 1 + below(r, 3) && u < 6; ++u)
        s += std::to_string(1 + below(r, 59)) + kUnits[u];
      return s;
    }
  }
}

std::string luhnComplete(std::string partial) {
  for (char c = '0'; c <= '9'; ++c)
    if (formatAccepts("creditcard", partial + c)) return partial + c;
  return partial + "0";
}

std::string isbn10(rc::Random& r) {
  std::string s = digits(r, 9);
  int sum = 0;
  for (int i = 0; i < 9; ++i) sum += (i + 1) * (s[i] - '0');
  const int check = sum % 11;
  return s + (check == 10 ? std::string("X") : std::to_string(check));
}

std::string isbn13(rc::Random& r) {
  std::string s = "978" + digits(r, 9);
  int sum = 0;
  for (int i = 0; i < 12; ++i) sum += (s[i] - '0') * (i % 2 == 0 ? 1 : 3);
  return s + std::to_string((10 - sum % 10) % 10);
}

std::string dnsLabel(rc::Random& r) {
  static constexpr char a[] = "abcdefghijklmnopqrstuvwxyz",
                        an[] = "abcdefghijklmnopqrstuvwxyz0123456789-";
  std::string s(1, a[below(r, 26)]);
  const int n = static_cast<int>(below(r, 12));
  for (int i = 0; i < n; ++i) s += an[below(r, 37)];
  while (s.back() == '-') s.pop_back();
  return s;
}

}  // namespace

rc::Gen<std::string> rfc3339Seconds() {
  return fromPick("2024-01-01T00:00:00Z", [](rc::Random& r) { return dateTime(r, true); });
}

std::optional<rc::Gen<std::string>> formatStrings(std::string_view format, FormatOptions options) {
  const std::string f = normalizedFormat(format);
  if (!isStringFormat(f)) return std::nullopt;
  if (f == "datetime") {
    const bool canonical = options.canonicalDateTimes;
    return fromPick("2024-01-01T00:00:00Z",
                    [canonical](rc::Random& r) { return dateTime(r, canonical); });
  }
  if (f == "date") return fromPick("2024-01-01", date);
  if (f == "duration") return fromPick("0s", duration);
  if (f == "byte") return fromPick("AA==", base64);
  if (f == "ipv4") return fromPick("0.0.0.0", ipv4);
  if (f == "ipv6") return fromPick("::1", ipv6);
  if (f == "cidr")
    return fromPick("10.0.0.0/8", [](rc::Random& r) {
      return below(r, 2) ? ipv4(r) + "/" + std::to_string(below(r, 33))
                         : ipv6(r) + "/" + std::to_string(below(r, 129));
    });
  if (f == "mac")
    return fromPick("00:00:00:00:00:00", [](rc::Random& r) {
      const char sep = below(r, 3) == 0 ? '-' : ':';
      std::string s;
      for (int i = 0; i < 6; ++i) s += (i ? std::string(1, sep) : "") + hex(r, 2);
      return s;
    });
  if (f == "uuid")
    return fromPick("00000000-0000-0000-0000-000000000000",
                    [](rc::Random& r) { return uuid(r, 0); });
  if (f == "uuid3")
    return fromPick("00000000-0000-3000-0000-000000000000",
                    [](rc::Random& r) { return uuid(r, '3'); });
  if (f == "uuid4")
    return fromPick("00000000-0000-4000-8000-000000000000",
                    [](rc::Random& r) { return uuid(r, '4'); });
  if (f == "uuid5")
    return fromPick("00000000-0000-5000-8000-000000000000",
                    [](rc::Random& r) { return uuid(r, '5'); });
  if (f == "uri")
    return fromPick("https://example.com/", [](rc::Random& r) {
      std::string s = std::string(below(r, 2) ? "https" : "http") + "://" + hostname(r);
      if (below(r, 3) == 0) s += ":" + std::to_string(1 + below(r, 65535));
      s += "/" + (below(r, 2) ? dnsLabel(r) : std::string());
      if (below(r, 4) == 0) s += "?q=" + dnsLabel(r);
      return s;
    });
  if (f == "email")
    return fromPick("a@example.com",
                    [](rc::Random& r) { return dnsLabel(r) + "@" + hostname(r) + ".example.com"; });
  if (f == "hostname") return fromPick("example.com", hostname);
  if (f == "bsonobjectid")
    return fromPick("000000000000000000000000", [](rc::Random& r) { return hex(r, 24); });
  if (f == "isbn10") return fromPick("0306406152", isbn10);
  if (f == "isbn13") return fromPick("9780306406157", isbn13);
  if (f == "isbn")
    return fromPick("0306406152",
                    [](rc::Random& r) { return below(r, 2) ? isbn10(r) : isbn13(r); });
  if (f == "creditcard")
    return fromPick("4111111111111111",
                    [](rc::Random& r) { return luhnComplete("4" + digits(r, 14)); });
  if (f == "ssn")
    return fromPick("123-45-6789", [](rc::Random& r) {
      return digits(r, 3) + "-" + digits(r, 2) + "-" + digits(r, 4);
    });
  if (f == "hexcolor")
    return fromPick("#000", [](rc::Random& r) {
      return (below(r, 2) ? "#" : "") + hex(r, below(r, 2) ? 3 : 6, below(r, 2));
    });
  if (f == "rgbcolor")
    return fromPick("rgb(0,0,0)", [](rc::Random& r) {
      return fmt("rgb(%d,%s%d,%d)", static_cast<int>(below(r, 256)), below(r, 2) ? " " : "",
                 static_cast<int>(below(r, 256)), static_cast<int>(below(r, 256)));
    });
  if (f == "k8sshortname" || f == "k8slongname") return fromPick("a", dnsLabel);
  // password: any string
  return fromPick("secret", [](rc::Random& r) { return "p@ss-" + hex(r, 8) + "-\xC3\xA9"; });
}

}  // namespace convcheck
