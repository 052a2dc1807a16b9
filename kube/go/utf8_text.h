// Text that stays valid UTF-8: invalid bytes replaced as Go's encoding/json writes them (one U+FFFD
// each), and shortening on a character boundary. Used wherever a long value is cut for a message or
// a report.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace convcheck {

// Each byte that does not start a well-formed UTF-8 sequence (as goDecodeRune reads it) replaced
// by U+FFFD, so the result is valid UTF-8; valid text is returned unchanged.
std::string toValidUtf8(std::string_view text);

// `text` when it has at most `maxBytes` bytes; otherwise its longest prefix that ends on a
// character boundary and leaves room for "...", followed by "..." (at most `maxBytes` bytes in
// all). A multi-byte character is never cut: valid UTF-8 in gives valid UTF-8 out.
std::string shortenUtf8(std::string_view text, std::size_t maxBytes);

}  // namespace convcheck
