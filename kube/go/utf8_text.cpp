#include "kube/go/utf8_text.h"

#include "kube/go/go_format.h"

namespace convcheck {

std::string toValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const auto [rune, width] = goDecodeRune(text);
    if (rune == 0xFFFD && width == 1)
      out += "\xEF\xBF\xBD";
    else
      out.append(text.substr(0, width));
    text.remove_prefix(width);
  }
  return out;
}

std::string shortenUtf8(std::string_view text, std::size_t maxBytes) {
  if (text.size() <= maxBytes) return std::string(text);
  constexpr std::string_view kEllipsis = "...";
  const std::size_t room = maxBytes > kEllipsis.size() ? maxBytes - kEllipsis.size() : 0;
  std::size_t end = 0;
  while (end < text.size()) {
    const std::size_t width = goDecodeRune(text.substr(end)).second;
    if (end + width > room) break;
    end += width;
  }
  return std::string(text.substr(0, end)) + std::string(kEllipsis);
}

}  // namespace convcheck
