// UTF-8 encoding and decoding of Unicode code points (runes), strict like Go's utf8 package.
// Used by the regex parser, the class sampler and the pattern generator.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace convcheck::pattern {

// Appends the UTF-8 encoding of `rune` (which must be a valid scalar value).
void appendUtf8(std::string& out, char32_t rune);

std::string toUtf8(std::u32string_view runes);

// Decodes the rune starting at `pos` and advances `pos` past it. Returns false (leaving `pos`) on
// truncated, overlong, surrogate or out-of-range sequences.
bool decodeUtf8(std::string_view text, std::size_t& pos, char32_t& rune);

// Number of runes in `text`, or nullopt when `text` is not valid UTF-8.
std::optional<std::size_t> countRunes(std::string_view text);

inline bool isSurrogate(char32_t rune) { return rune >= 0xD800 && rune <= 0xDFFF; }

}  // namespace convcheck::pattern
