#include "generators/pattern/utf8.h"

namespace convcheck::pattern {

void appendUtf8(std::string& out, char32_t rune) {
  if (rune < 0x80) {
    out.push_back(static_cast<char>(rune));
  } else if (rune < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (rune >> 6)));
    out.push_back(static_cast<char>(0x80 | (rune & 0x3F)));
  } else if (rune < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (rune >> 12)));
    out.push_back(static_cast<char>(0x80 | ((rune >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (rune & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (rune >> 18)));
    out.push_back(static_cast<char>(0x80 | ((rune >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((rune >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (rune & 0x3F)));
  }
}

std::string toUtf8(std::u32string_view runes) {
  std::string out;
  out.reserve(runes.size());
  for (char32_t r : runes) appendUtf8(out, r);
  return out;
}

bool decodeUtf8(std::string_view text, std::size_t& pos, char32_t& rune) {
  if (pos >= text.size()) return false;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char b0 = byte(pos);
  std::size_t length = 0;
  char32_t value = 0;
  char32_t minimum = 0;
  if (b0 < 0x80) {
    rune = b0;
    ++pos;
    return true;
  } else if ((b0 & 0xE0) == 0xC0) {
    length = 2, value = b0 & 0x1F, minimum = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    length = 3, value = b0 & 0x0F, minimum = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    length = 4, value = b0 & 0x07, minimum = 0x10000;
  } else {
    return false;
  }
  if (pos + length > text.size()) return false;
  for (std::size_t i = 1; i < length; ++i) {
    const unsigned char b = byte(pos + i);
    if ((b & 0xC0) != 0x80) return false;
    value = (value << 6) | (b & 0x3F);
  }
  if (value < minimum || value > 0x10FFFF || isSurrogate(value)) return false;
  rune = value;
  pos += length;
  return true;
}

std::optional<std::size_t> countRunes(std::string_view text) {
  std::size_t count = 0;
  std::size_t pos = 0;
  char32_t rune = 0;
  while (pos < text.size()) {
    if (!decodeUtf8(text, pos, rune)) return std::nullopt;
    ++count;
  }
  return count;
}

}  // namespace convcheck::pattern
