#include "kube/crd/yaml_scalar.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kube/crd/base64.h"
#include "kube/go/utf8.h"

namespace convcheck {

namespace {

constexpr std::string_view kTagPrefix = "tag:yaml.org,2002:";

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// go-yaml v2 resolveTable: the first character decides which resolutions are tried.
char hintFor(std::string_view text) {
  if (text.empty()) return 'N';
  const char c = text[0];
  if (c == '+' || c == '-') return 'S';
  if (isDigit(c)) return 'D';
  if (c == '.') return '.';
  switch (c) {
    case 'y':
    case 'Y':
    case 'n':
    case 'N':
    case 't':
    case 'T':
    case 'f':
    case 'F':
    case 'o':
    case 'O':
    case '~':
      return 'M';
    default:
      return 0;
  }
}

// go-yaml v2 resolveMap.
bool lookupResolveMap(std::string_view text, ResolvedScalar& out) {
  static constexpr std::string_view kTrue[] = {"y",  "Y",  "yes",  "Yes",  "YES", "on",
                                               "On", "ON", "true", "True", "TRUE"};
  static constexpr std::string_view kFalse[] = {"n",   "N",   "no",    "No",    "NO",   "off",
                                                "Off", "OFF", "false", "False", "FALSE"};
  static constexpr std::string_view kNull[] = {"", "~", "null", "Null", "NULL"};
  static constexpr std::string_view kNaN[] = {".nan", ".NaN", ".NAN"};
  static constexpr std::string_view kInf[] = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"};
  static constexpr std::string_view kNegInf[] = {"-.inf", "-.Inf", "-.INF"};
  for (auto s : kTrue)
    if (text == s) return out.value = true, true;
  for (auto s : kFalse)
    if (text == s) return out.value = false, true;
  for (auto s : kNull)
    if (text == s) return out.value = nullptr, true;
  for (auto s : kNaN)
    if (text == s) return out.nonFinite = NonFiniteFloat::NaN, true;
  for (auto s : kInf)
    if (text == s) return out.nonFinite = NonFiniteFloat::PositiveInfinity, true;
  for (auto s : kNegInf)
    if (text == s) return out.nonFinite = NonFiniteFloat::NegativeInfinity, true;
  return false;
}

// Go's strconv.ParseUint(s, 0, 64) (s without sign and without underscores).
bool parseGoUint(std::string_view s, std::uint64_t& out) {
  if (s.empty()) return false;
  int base = 10;
  if (s[0] == '0') {
    const char p = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : 0;
    if (p == 'b') {
      base = 2, s.remove_prefix(2);
    } else if (p == 'o') {
      base = 8, s.remove_prefix(2);
    } else if (p == 'x') {
      base = 16, s.remove_prefix(2);
    } else {
      base = 8, s.remove_prefix(1);
    }
  }
  std::uint64_t n = 0;
  for (char c : s) {
    int d;
    if (isDigit(c)) {
      d = c - '0';
    } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
      d = (c | 0x20) - 'a' + 10;
    } else {
      return false;
    }
    if (d >= base) return false;
    if (n > (std::numeric_limits<std::uint64_t>::max() - static_cast<unsigned>(d)) /
                static_cast<unsigned>(base))
      return false;
    n = n * static_cast<unsigned>(base) + static_cast<unsigned>(d);
  }
  out = n;
  return true;
}

// Go's strconv.ParseInt(s, 0, 64).
bool parseGoInt(std::string_view s, std::int64_t& out) {
  if (s.empty()) return false;
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  std::uint64_t magnitude = 0;
  if (!parseGoUint(s, magnitude)) return false;
  constexpr std::uint64_t kMaxPositive = std::numeric_limits<std::int64_t>::max();
  if (!negative) {
    if (magnitude > kMaxPositive) return false;
    out = static_cast<std::int64_t>(magnitude);
  } else {
    if (magnitude > kMaxPositive + 1) return false;
    out = magnitude == kMaxPositive + 1 ? std::numeric_limits<std::int64_t>::min()
                                        : -static_cast<std::int64_t>(magnitude);
  }
  return true;
}

// go-yaml's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool isYamlStyleFloat(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    const std::size_t start = i;
    while (i < s.size() && isDigit(s[i])) ++i;
    if (i == start) return false;
  } else {
    const std::size_t start = i;
    while (i < s.size() && isDigit(s[i])) ++i;
    if (i == start) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && isDigit(s[i])) ++i;
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const std::size_t start = i;
    while (i < s.size() && isDigit(s[i])) ++i;
    if (i == start) return false;
  }
  return i == s.size();
}

// Whether a syntactically valid decimal float that from_chars reported out of range is too large
// (Go: ParseFloat fails) rather than too small (Go: rounds to zero).
bool overflows(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  long magnitude = 0;  // decimal exponent of the first significant digit, before the exponent
  bool seenSignificant = false;
  long intDigits = 0;
  long fractionZeros = 0;
  bool inFraction = false;
  for (; i < s.size() && s[i] != 'e' && s[i] != 'E'; ++i) {
    if (s[i] == '.') {
      inFraction = true;
      continue;
    }
    if (!inFraction) {
      if (seenSignificant || s[i] != '0') seenSignificant = true, ++intDigits;
    } else if (!seenSignificant) {
      if (s[i] == '0')
        ++fractionZeros;
      else
        seenSignificant = true;
    }
  }
  magnitude = intDigits > 0 ? intDigits - 1 : -(fractionZeros + 1);
  long exponent = 0;
  if (i < s.size()) {
    ++i;
    bool negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    for (; i < s.size(); ++i) exponent = std::min(exponent * 10 + (s[i] - '0'), 100000L);
    if (negative) exponent = -exponent;
  }
  return magnitude + exponent > 0;
}

// Go's strconv.ParseFloat(s, 64) for a string that matched isYamlStyleFloat. False when Go
// reports a range error (the value overflows).
bool parseYamlFloat(std::string_view s, double& out) {
  std::string_view digits = s;
  if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
  double value = 0;
  const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (result.ec == std::errc::result_out_of_range) {
    if (overflows(s)) return false;
    out = (!s.empty() && s[0] == '-') ? -0.0 : 0.0;
    return true;
  }
  if (result.ec != std::errc() || result.ptr != digits.data() + digits.size()) return false;
  out = value;
  return true;
}

// go-yaml v2 resolve() for a plain scalar (no explicit tag).
ResolvedScalar resolvePlain(std::string_view text) {
  ResolvedScalar out;
  const char hint = hintFor(text);
  if (hint == 0) {
    out.value = std::string(text);
    return out;
  }
  if (lookupResolveMap(text, out)) return out;
  if (hint == '.') {
    double f;
    if (isYamlStyleFloat(text) && parseYamlFloat(text, f)) {
      out.value = f;
      return out;
    }
  } else if (hint == 'D' || hint == 'S') {
    std::string plain;
    plain.reserve(text.size());
    for (char c : text)
      if (c != '_') plain.push_back(c);
    std::int64_t i;
    if (parseGoInt(plain, i)) {
      out.value = i;
      return out;
    }
    std::uint64_t u;
    if (!plain.empty() && plain[0] != '+' && plain[0] != '-' && parseGoUint(plain, u)) {
      out.value = u;
      return out;
    }
    double f;
    if (isYamlStyleFloat(plain) && parseYamlFloat(plain, f)) {
      out.value = f;
      return out;
    }
  }
  out.value = std::string(text);
  return out;
}

std::string shortTag(std::string_view tag) {
  if (tag.substr(0, kTagPrefix.size()) == kTagPrefix)
    return "!!" + std::string(tag.substr(kTagPrefix.size()));
  return std::string(tag);
}

std::string kindTag(const ResolvedScalar& r) {
  if (r.nonFinite != NonFiniteFloat::None) return "!!float";
  switch (r.value.type()) {
    case nlohmann::json::value_t::null:
      return "!!null";
    case nlohmann::json::value_t::boolean:
      return "!!bool";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return "!!int";
    case nlohmann::json::value_t::number_float:
      return "!!float";
    default:
      return "!!str";
  }
}

ResolvedScalar cannotDecode(const ResolvedScalar& resolved, std::string_view text,
                            std::string_view tag) {
  ResolvedScalar out;
  out.error =
      "cannot decode " + kindTag(resolved) + " `" + std::string(text) + "` as a " + shortTag(tag);
  return out;
}

}  // namespace

ResolvedScalar resolveYamlScalar(const YamlEvent& scalar) {
  return resolveYamlScalar(!scalar.tag.empty() ? scalar.tag
                           : scalar.plain      ? "?"
                                               : "!",
                           scalar.value);
}

ResolvedScalar resolveYamlScalar(std::string_view tag, std::string_view text) {
  if (tag == "?" || tag.empty()) return resolvePlain(text);
  if (tag.substr(0, kTagPrefix.size()) != kTagPrefix) {
    // "!" (quoted or block scalar) and local tags such as "!foo": the text as a string.
    ResolvedScalar out;
    out.value = std::string(text);
    return out;
  }
  const std::string_view name = tag.substr(kTagPrefix.size());
  if (name == "binary") {
    std::string why;
    auto decoded = decodeBase64(text, &why);
    ResolvedScalar out;
    if (!decoded) {
      out.error = "!!binary value contains invalid base64 data (" + why + ")";
    } else if (firstInvalidUtf8(*decoded) != std::string_view::npos) {
      out.error = "!!binary value is not UTF-8 text, which JSON cannot hold";
    } else {
      out.value = std::move(*decoded);
    }
    return out;
  }
  if (name == "bool" || name == "int" || name == "float" || name == "null") {
    ResolvedScalar resolved = resolvePlain(text);
    const std::string kind = kindTag(resolved);
    if (name == "float" && kind == "!!int") {
      resolved.value = resolved.value.get<double>();
      return resolved;
    }
    if (kind != "!!" + std::string(name)) return cannotDecode(resolved, text, tag);
    return resolved;
  }
  // !!str, !!value (a plain "="), !!timestamp and every other tag: the text as a string.
  ResolvedScalar out;
  out.value = std::string(text);
  return out;
}

nlohmann::json normaliseJsonNumber(nlohmann::json value) {
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return static_cast<std::int64_t>(u);
    return static_cast<double>(u);
  }
  if (value.is_number_float()) {
    const double f = value.get<double>();
    // [-2^63, 2^63): exactly the doubles that convert to int64 without overflow.
    if (std::isfinite(f) && f == std::trunc(f) && f >= -9223372036854775808.0 &&
        f < 9223372036854775808.0)
      return static_cast<std::int64_t>(f);
  }
  return value;
}

std::string goFormatFloat32(double v) {
  const float f = static_cast<float>(v);
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  const bool negative = std::signbit(f);
  std::string out = negative ? "-" : "";
  if (f == 0) return out + "0";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, std::fabs(f), std::chars_format::scientific);
  const std::string sci(buf, r.ptr);  // "d.ddde+XX"
  const auto ePos = sci.find('e');
  std::string digits;
  for (std::size_t i = 0; i < ePos; ++i)
    if (sci[i] != '.') digits.push_back(sci[i]);
  const int exponent = std::stoi(sci.substr(ePos + 1));
  const int nd = static_cast<int>(digits.size());
  const int dp = exponent + 1;
  if (exponent < -4 || exponent >= 6) {  // %e with the shortest digits, exponent >= 2 digits
    out += digits[0];
    if (nd > 1) out += "." + digits.substr(1);
    out += exponent < 0 ? "e-" : "e+";
    const int absExp = exponent < 0 ? -exponent : exponent;
    if (absExp < 10) out += "0";
    out += std::to_string(absExp);
    return out;
  }
  // %f with max(nd - dp, 0) decimals.
  if (dp <= 0) {
    out += "0." + std::string(static_cast<std::size_t>(-dp), '0') + digits;
  } else if (dp >= nd) {
    out += digits + std::string(static_cast<std::size_t>(dp - nd), '0');
  } else {
    out += digits.substr(0, static_cast<std::size_t>(dp)) + "." +
           digits.substr(static_cast<std::size_t>(dp));
  }
  return out;
}

bool yamlKeyToString(const ResolvedScalar& key, std::string& out, std::string& why) {
  switch (key.nonFinite) {
    case NonFiniteFloat::PositiveInfinity:
      out = ".inf";
      return true;
    case NonFiniteFloat::NegativeInfinity:
      out = "-.inf";
      return true;
    case NonFiniteFloat::NaN:
      out = ".nan";
      return true;
    case NonFiniteFloat::None:
      break;
  }
  const auto& v = key.value;
  if (v.is_string()) {
    out = v.get<std::string>();
  } else if (v.is_boolean()) {
    out = v.get<bool>() ? "true" : "false";
  } else if (v.is_number_integer() && !v.is_number_unsigned()) {
    out = std::to_string(v.get<std::int64_t>());
  } else if (v.is_number_unsigned()) {
    out = std::to_string(v.get<std::uint64_t>());
  } else if (v.is_number_float()) {
    out = goFormatFloat32(v.get<double>());
    // sigs.k8s.io/yaml spells the float32 overflows and NaN the YAML way.
    if (out == "+Inf") out = ".inf";
    if (out == "-Inf") out = "-.inf";
    if (out == "NaN") out = ".nan";
  } else {
    why = "a null map key cannot become a JSON object key";
    return false;
  }
  return true;
}

}  // namespace convcheck
