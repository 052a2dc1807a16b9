#include "kube/crd/utf8.h"

#include <cstdint>

namespace convcheck {

std::size_t firstInvalidUtf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t extra;
    std::uint32_t cp;
    if ((c & 0xe0) == 0xc0) {
      extra = 1, cp = c & 0x1fu;
    } else if ((c & 0xf0) == 0xe0) {
      extra = 2, cp = c & 0x0fu;
    } else if ((c & 0xf8) == 0xf0) {
      extra = 3, cp = c & 0x07u;
    } else {
      return i;
    }
    if (i + extra >= text.size()) return i;
    for (std::size_t k = 1; k <= extra; ++k) {
      const unsigned char cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xc0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3fu);
    }
    if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000) ||
        cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return i;
    i += extra + 1;
  }
  return std::string_view::npos;
}

}  // namespace convcheck
