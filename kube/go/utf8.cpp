#include "kube/go/utf8.h"

namespace convcheck {

std::pair<char32_t, std::size_t> decodeRune(std::string_view s) {
  if (s.empty()) return {kRuneError, 0};
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b0 = byte(0);
  if (b0 < 0x80) return {b0, 1};
  std::size_t width = 0;
  char32_t rune = 0;
  char32_t minimum = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    width = 2, rune = b0 & 0x1F, minimum = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    width = 3, rune = b0 & 0x0F, minimum = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    width = 4, rune = b0 & 0x07, minimum = 0x10000;
  } else {
    return {kRuneError, 1};
  }
  if (width > s.size()) return {kRuneError, 1};
  for (std::size_t i = 1; i < width; ++i) {
    const unsigned char b = byte(i);
    if ((b & 0xC0) != 0x80) return {kRuneError, 1};
    rune = (rune << 6) | (b & 0x3F);
  }
  if (rune < minimum || rune > 0x10FFFF || isSurrogate(rune)) return {kRuneError, 1};
  return {rune, width};
}

std::pair<char32_t, std::size_t> decodeLastRune(std::string_view s) {
  if (s.empty()) return {kRuneError, 0};
  // A rune is at most four bytes: its start is the last byte within them that is not a
  // continuation byte (10xxxxxx).
  std::size_t start = s.size() - 1;
  const std::size_t limit = s.size() >= 4 ? s.size() - 4 : 0;
  while (start > limit && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
  const auto [rune, width] = decodeRune(s.substr(start));
  if (start + width != s.size()) return {kRuneError, 1};
  return {rune, width};
}

bool nextRune(std::string_view text, std::size_t& pos, char32_t& rune) {
  if (pos >= text.size()) return false;
  const auto [decoded, width] = decodeRune(text.substr(pos));
  // A valid U+FFFD is three bytes wide; the error is one.
  if (decoded == kRuneError && width == 1) return false;
  rune = decoded;
  pos += width;
  return true;
}

void appendRune(std::string& out, char32_t rune) {
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

std::string encodeRune(char32_t rune) {
  std::string out;
  appendRune(out, rune);
  return out;
}

std::string encodeRunes(std::u32string_view runes) {
  std::string out;
  out.reserve(runes.size());
  for (char32_t r : runes) appendRune(out, r);
  return out;
}

std::size_t firstInvalidUtf8(std::string_view text) {
  std::size_t pos = 0;
  char32_t rune = 0;
  while (pos < text.size())
    if (!nextRune(text, pos, rune)) return pos;
  return std::string_view::npos;
}

std::size_t runeCount(std::string_view text) {
  std::size_t count = 0;
  while (!text.empty()) {
    text.remove_prefix(decodeRune(text).second);
    ++count;
  }
  return count;
}

std::string toValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const auto [rune, width] = decodeRune(text);
    if (rune == kRuneError && width == 1)
      appendRune(out, kRuneError);
    else
      out.append(text.substr(0, width));
    text.remove_prefix(width);
  }
  return out;
}

std::string_view utf8Prefix(std::string_view text, std::size_t maxBytes) {
  if (text.size() <= maxBytes) return text;
  std::size_t end = 0;
  while (end < text.size()) {
    const std::size_t width = decodeRune(text.substr(end)).second;
    if (end + width > maxBytes) break;
    end += width;
  }
  return text.substr(0, end);
}

std::string shortenUtf8(std::string_view text, std::size_t maxBytes) {
  if (text.size() <= maxBytes) return std::string(text);
  constexpr std::string_view kEllipsis = "...";
  const std::size_t room = maxBytes > kEllipsis.size() ? maxBytes - kEllipsis.size() : 0;
  return std::string(utf8Prefix(text, room)) + std::string(kEllipsis);
}

}  // namespace convcheck
