#include "kube/crd/base64.h"

#include <array>

namespace convcheck {

namespace {

constexpr int kInvalid = -1;

constexpr std::array<int, 256> makeTable() {
  std::array<int, 256> table{};
  for (auto& entry : table) entry = kInvalid;
  constexpr std::string_view alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (std::size_t i = 0; i < alphabet.size(); ++i)
    table[static_cast<unsigned char>(alphabet[i])] = static_cast<int>(i);
  return table;
}

constexpr std::array<int, 256> kTable = makeTable();

std::optional<std::string> fail(std::size_t offset, std::string* why) {
  if (why) *why = "illegal base64 data at input byte " + std::to_string(offset);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> decodeBase64(std::string_view text, std::string* why) {
  std::string out;
  out.reserve(text.size() / 4 * 3);
  int quad[4];
  int filled = 0;
  int padding = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\r' || c == '\n') continue;
    if (padding > 0 && c != '=') return fail(i, why);  // data after padding
    if (c == '=') {
      if (filled < 2) return fail(i, why);  // "=" can only stand for the 3rd or 4th character
      ++padding;
      quad[filled] = 0;
      ++filled;
    } else {
      const int value = kTable[c];
      if (value == kInvalid) return fail(i, why);
      quad[filled] = value;
      ++filled;
    }
    if (filled == 4) {
      const unsigned bits = (static_cast<unsigned>(quad[0]) << 18) |
                            (static_cast<unsigned>(quad[1]) << 12) |
                            (static_cast<unsigned>(quad[2]) << 6) | static_cast<unsigned>(quad[3]);
      out.push_back(static_cast<char>((bits >> 16) & 0xff));
      if (padding < 2) out.push_back(static_cast<char>((bits >> 8) & 0xff));
      if (padding < 1) out.push_back(static_cast<char>(bits & 0xff));
      filled = 0;
      if (padding > 0) padding = 3;  // only line breaks may follow a padded quantum
    }
  }
  if (filled != 0) return fail(text.size(), why);
  return out;
}

}  // namespace convcheck
