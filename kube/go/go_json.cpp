#include "kube/go/go_json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "kube/go/utf8.h"

namespace convcheck {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// Which bytes Go's encoder writes unchanged: ASCII but a control, quote, backslash or HTML
// character. A table, not a chain of comparisons: every byte of every request goes through it.
struct PlainBytes {
  bool plain[256] = {};
  constexpr PlainBytes() {
    for (int b = 0x20; b < 0x80; ++b)
      plain[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&';
  }
};

bool plainByte(unsigned char b) {
  static constexpr PlainBytes kTable;
  return kTable.plain[b];
}

// An integer in decimal, written in place (no string of its own per number).
template <typename Integer>
void appendDecimal(std::string& out, Integer value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

// strconv.FormatFloat(value, 'f' or 'e', -1, 64) as encoding/json uses it: the shortest digits
// that round-trip, zero-padded in 'f' form (2^64 prints as 18446744073709552000).
void appendGoFloat(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  const double magnitude = std::fabs(value);
  const bool exponentForm = magnitude != 0 && (magnitude < 1e-6 || magnitude >= 1e21);
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  std::string scientific(buffer, result.ptr);  // e.g. "-1.5e-07", "1e+21"
  if (exponentForm) {
    // Go writes e-7 where C writes e-07 (negative exponents only; e+21 keeps its digits).
    const std::size_t n = scientific.size();
    if (n >= 4 && scientific[n - 4] == 'e' && scientific[n - 3] == '-' &&
        scientific[n - 2] == '0') {
      scientific.erase(n - 2, 1);
    }
    out += scientific;
    return;
  }
  const std::size_t e = scientific.find('e');
  const bool negative = scientific[0] == '-';
  std::string digits;
  for (std::size_t i = negative ? 1 : 0; i < e; ++i) {
    if (scientific[i] != '.') digits += scientific[i];
  }
  const int exponent = std::stoi(scientific.substr(e + 1));
  if (negative) out += '-';
  if (digits == "0") {
    out += '0';
    return;
  }
  const int pointAt = exponent + 1;  // digits before the decimal point
  if (pointAt <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-pointAt), '0');
    out += digits;
  } else if (static_cast<std::size_t>(pointAt) >= digits.size()) {
    out += digits;
    out.append(static_cast<std::size_t>(pointAt) - digits.size(), '0');
  } else {
    out.append(digits, 0, static_cast<std::size_t>(pointAt));
    out += '.';
    out.append(digits, static_cast<std::size_t>(pointAt), std::string::npos);
  }
}

}  // namespace

void appendGoJsonString(std::string& out, const std::string& text) {
  out += '"';
  std::size_t i = 0;
  while (i < text.size()) {
    // A run of bytes written as they are, appended at once.
    std::size_t end = i;
    while (end < text.size() && plainByte(static_cast<unsigned char>(text[end]))) ++end;
    if (end > i) {
      out.append(text, i, end - i);
      i = end;
      if (i == text.size()) break;
    }
    const unsigned char b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      switch (b) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
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
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        default:
          if (b < 0x20 || b == '<' || b == '>' || b == '&') {
            out += "\\u00";
            out += kHex[b >> 4];
            out += kHex[b & 0xF];
          } else {
            out += static_cast<char>(b);
          }
      }
      ++i;
      continue;
    }
    const std::size_t start = i;
    char32_t code = 0;
    if (!nextRune(text, i, code)) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (code == 0x2028 || code == 0x2029) {
      out += "\\u202";
      out += kHex[code & 0xF];
    } else {
      out.append(text, start, i - start);
    }
  }
  out += '"';
}

void appendGoJson(std::string& out, const nlohmann::json& value) {
  using Type = nlohmann::json::value_t;
  switch (value.type()) {
    case Type::null:
    case Type::discarded:
    case Type::binary:
      out += "null";
      return;
    case Type::boolean:
      out += value.get<bool>() ? "true" : "false";
      return;
    case Type::number_integer:
      appendDecimal(out, value.get<std::int64_t>());
      return;
    case Type::number_unsigned: {
      const auto u = value.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        appendDecimal(out, u);
      } else {
        appendGoFloat(out, static_cast<double>(u));
      }
      return;
    }
    case Type::number_float:
      appendGoFloat(out, value.get<double>());
      return;
    case Type::string:
      appendGoJsonString(out, value.get_ref<const std::string&>());
      return;
    case Type::array: {
      // The containers themselves, not nlohmann's iterators: every request body is written here.
      out += '[';
      bool first = true;
      for (const auto& element : value.get_ref<const nlohmann::json::array_t&>()) {
        if (!first) out += ',';
        first = false;
        appendGoJson(out, element);
      }
      out += ']';
      return;
    }
    case Type::object: {
      // nlohmann::json keeps object members in a std::map<std::string, ...>: byte-wise order,
      // the same order Go's encoder sorts map keys into.
      out += '{';
      bool first = true;
      for (const auto& [key, member] : value.get_ref<const nlohmann::json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        appendGoJsonString(out, key);
        out += ':';
        appendGoJson(out, member);
      }
      out += '}';
      return;
    }
  }
}

}  // namespace convcheck
