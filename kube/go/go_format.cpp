#include "kube/go/go_format.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kube/go/utf8.h"

namespace convcheck {
namespace {

constexpr char kLowerHex[] = "0123456789abcdef";

// unicode.IsPrint for non-ASCII runes, approximated by the ranges that are not letters, marks,
// numbers, punctuation or symbols and that webhooks realistically produce.
bool isPrintNonAscii(char32_t r) {
  struct Range {
    char32_t lo, hi;
  };
  static constexpr Range kNotPrintable[] = {
      {0x80, 0xA0},       {0xAD, 0xAD},       {0x600, 0x605},     {0x61C, 0x61C},
      {0x6DD, 0x6DD},     {0x70F, 0x70F},     {0x1680, 0x1680},   {0x180E, 0x180E},
      {0x2000, 0x200F},   {0x2028, 0x202F},   {0x205F, 0x2064},   {0x2066, 0x206F},
      {0x3000, 0x3000},   {0xD800, 0xF8FF},   {0xFDD0, 0xFDEF},   {0xFEFF, 0xFEFF},
      {0xFFF0, 0xFFFB},   {0xFFFE, 0xFFFF},   {0x110BD, 0x110BD}, {0x1D173, 0x1D17A},
      {0xE0000, 0xE0FFF}, {0xF0000, 0x10FFFF}};
  for (const auto& range : kNotPrintable)
    if (r >= range.lo && r <= range.hi) return false;
  if ((r & 0xFFFE) == 0xFFFE) return false;  // noncharacters U+xFFFE / U+xFFFF
  return true;
}

bool isSpaceRune(char32_t r) {
  switch (r) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return r >= 0x2000 && r <= 0x200A;
  }
}

void appendGoSharpV(std::string& out, const nlohmann::json& v, bool inInterface) {
  switch (v.type()) {
    case nlohmann::json::value_t::null:
      out += inInterface ? "interface {}(nil)" : "<nil>";
      return;
    case nlohmann::json::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      return;
    case nlohmann::json::value_t::number_integer:
      out += std::to_string(v.get<std::int64_t>());
      return;
    case nlohmann::json::value_t::number_unsigned:
      out += std::to_string(v.get<std::uint64_t>());
      return;
    case nlohmann::json::value_t::number_float:
      out += goFloatV(v.get<double>());
      return;
    case nlohmann::json::value_t::string:
      out += goQuote(v.get_ref<const std::string&>());
      return;
    case nlohmann::json::value_t::array: {
      out += "[]interface {}{";
      bool first = true;
      for (const auto& e : v) {
        if (!first) out += ", ";
        first = false;
        appendGoSharpV(out, e, true);
      }
      out += "}";
      return;
    }
    case nlohmann::json::value_t::object: {
      out += "map[string]interface {}{";
      bool first = true;
      for (const auto& [k, e] : v.items()) {  // nlohmann objects iterate in sorted key order
        if (!first) out += ", ";
        first = false;
        out += goQuote(k);
        out += ":";
        appendGoSharpV(out, e, true);
      }
      out += "}";
      return;
    }
    default:
      out += "<nil>";
  }
}

}  // namespace

std::string goQuote(std::string_view s) {
  std::string out = "\"";
  while (!s.empty()) {
    auto [r, width] = decodeRune(s);
    if (width == 1 && r == kRuneError) {
      const auto byte = static_cast<unsigned char>(s[0]);
      out += "\\x";
      out += kLowerHex[byte >> 4];
      out += kLowerHex[byte & 0xF];
      s.remove_prefix(1);
      continue;
    }
    s.remove_prefix(width);
    if (r == '"' || r == '\\') {
      out += '\\';
      out += char(r);
      continue;
    }
    const bool printable = r < 0x80 ? (r >= 0x20 && r < 0x7F) : isPrintNonAscii(r);
    if (printable) {
      appendRune(out, r);
      continue;
    }
    switch (r) {
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\v':
        out += "\\v";
        break;
      default:
        if (r < ' ' || r == 0x7F) {
          out += "\\x";
          out += kLowerHex[(r >> 4) & 0xF];
          out += kLowerHex[r & 0xF];
        } else if (r < 0x10000) {
          out += "\\u";
          for (int shift = 12; shift >= 0; shift -= 4) out += kLowerHex[(r >> shift) & 0xF];
        } else {
          out += "\\U";
          for (int shift = 28; shift >= 0; shift -= 4) out += kLowerHex[(r >> shift) & 0xF];
        }
    }
  }
  out += '"';
  return out;
}

std::string goTypeName(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null:
      return "<nil>";
    case nlohmann::json::value_t::boolean:
      return "bool";
    case nlohmann::json::value_t::number_integer:
      return "int64";
    case nlohmann::json::value_t::number_unsigned:
      return v.get<std::uint64_t>() > std::uint64_t(INT64_MAX) ? "float64" : "int64";
    case nlohmann::json::value_t::number_float:
      return "float64";
    case nlohmann::json::value_t::string:
      return "string";
    case nlohmann::json::value_t::array:
      return "[]interface {}";
    case nlohmann::json::value_t::object:
      return "map[string]interface {}";
    default:
      return "<nil>";
  }
}

std::string goFloatV(double d) {
  // Shortest round-trip digits in scientific form: "d.ddde±x".
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  if (sci == "inf") return "+Inf";
  if (sci == "-inf") return "-Inf";
  if (sci.find("nan") != std::string::npos) return "NaN";
  bool negative = sci[0] == '-';
  if (negative) sci.erase(0, 1);
  auto ePos = sci.find('e');
  std::string mantissa = sci.substr(0, ePos);
  int exp = std::atoi(sci.c_str() + ePos + 1);
  std::string digits;
  for (char c : mantissa)
    if (c != '.') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = negative ? "-" : "";
  if (d == 0) return out + "0";
  if (exp < -4 || exp >= 6) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += exp < 0 ? "e-" : "e+";
    int a = exp < 0 ? -exp : exp;
    if (a < 10) out += '0';
    out += std::to_string(a);
    return out;
  }
  const int pointPos = exp + 1;  // digits before the decimal point
  if (pointPos <= 0) {
    out += "0." + std::string(static_cast<std::size_t>(-pointPos), '0') + digits;
  } else if (static_cast<std::size_t>(pointPos) >= digits.size()) {
    out += digits + std::string(static_cast<std::size_t>(pointPos) - digits.size(), '0');
  } else {
    out += digits.substr(0, static_cast<std::size_t>(pointPos)) + "." +
           digits.substr(static_cast<std::size_t>(pointPos));
  }
  return out;
}

std::string goSharpV(const nlohmann::json& v) {
  std::string out;
  appendGoSharpV(out, v, false);
  return out;
}

std::string goTrimSpace(std::string_view s) {
  std::size_t begin = 0;
  while (begin < s.size()) {
    auto [r, width] = decodeRune(s.substr(begin));
    if (width == 1 && r == kRuneError) break;
    if (!isSpaceRune(r)) break;
    begin += width;
  }
  std::size_t end = s.size();
  while (end > begin) {
    auto [r, width] = decodeLastRune(s.substr(begin, end - begin));
    if ((width == 1 && r == kRuneError) || !isSpaceRune(r)) break;
    end -= width;
  }
  return std::string(s.substr(begin, end - begin));
}

}  // namespace convcheck
