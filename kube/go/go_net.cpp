#include "kube/go/go_net.h"

#include <cstddef>
#include <cstdint>

namespace convcheck {
namespace {

bool isDecimalDigit(char c) { return c >= '0' && c <= '9'; }

int ipHexValue(char c) {
  if (isDecimalDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Four dotted decimal parts into out[0..3].
bool parseIPv4(std::string_view s, unsigned char* out) {
  std::size_t i = 0;
  for (int part = 0; part < 4; ++part) {
    if (part > 0) {
      if (i >= s.size() || s[i] != '.') return false;
      ++i;
    }
    const std::size_t start = i;
    int value = 0;
    while (i < s.size() && isDecimalDigit(s[i]) && i - start < 4)
      value = value * 10 + (s[i++] - '0');
    const std::size_t len = i - start;
    if (len == 0 || len > 3 || value > 255) return false;
    if (len > 1 && s[start] == '0') return false;  // Go >= 1.17 rejects leading zeros
    out[part] = static_cast<unsigned char>(value);
  }
  return i == s.size();
}

bool parseIPv6(std::string_view s, GoIp& ip) {
  ip = {};
  int groups = 0;     // 16-bit groups written so far
  int ellipsis = -1;  // group index where "::" stands
  std::size_t i = 0;
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    i = 2;
    if (i == s.size()) return true;
  }
  while (i < s.size()) {
    const std::size_t start = i;
    std::uint32_t value = 0;
    while (i < s.size() && ipHexValue(s[i]) >= 0 && i - start < 5)
      value = value * 16 + static_cast<std::uint32_t>(ipHexValue(s[i++]));
    const std::size_t len = i - start;
    if (len == 0 || len > 4) return false;
    if (i < s.size() && s[i] == '.') {  // embedded IPv4 in the last 32 bits
      if (ellipsis < 0 && groups != 6) return false;
      if (groups + 2 > 8) return false;
      if (!parseIPv4(s.substr(start), ip.data() + 2 * groups)) return false;
      groups += 2;
      i = s.size();
      break;
    }
    ip[2 * groups] = static_cast<unsigned char>(value >> 8);
    ip[2 * groups + 1] = static_cast<unsigned char>(value & 0xFF);
    ++groups;
    if (i == s.size()) break;
    if (s[i] != ':' || groups == 8) return false;
    ++i;
    if (i < s.size() && s[i] == ':') {
      if (ellipsis >= 0) return false;
      ellipsis = groups;
      ++i;
      if (i == s.size()) break;
    } else if (i == s.size()) {
      return false;
    }
  }
  if (ellipsis < 0) return groups == 8;
  if (groups >= 8) return false;
  // Move the groups after "::" to the end; zeros fill the gap.
  const int gap = 8 - groups;
  for (int g = groups - 1; g >= ellipsis; --g) {
    ip[2 * (g + gap)] = ip[2 * g];
    ip[2 * (g + gap) + 1] = ip[2 * g + 1];
    ip[2 * g] = 0;
    ip[2 * g + 1] = 0;
  }
  return true;
}

}  // namespace

std::optional<GoIp> goParseIP(std::string_view text) {
  GoIp ip{};
  if (parseIPv4(text, ip.data() + 12)) {
    ip[10] = 0xFF;
    ip[11] = 0xFF;
    return ip;
  }
  if (parseIPv6(text, ip)) return ip;
  return std::nullopt;
}

}  // namespace convcheck
