// UTF-8 as Go's unicode/utf8 package reads and writes it (strict decoding: overlong forms,
// surrogates and code points above U+10FFFF are invalid), valid text and shortening on character
// boundaries. The one UTF-8 implementation: kube, generators, properties, shrink, reports, app.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace convcheck {

inline constexpr char32_t kRuneError = 0xFFFD;  // utf8.RuneError

inline bool isSurrogate(char32_t rune) { return rune >= 0xD800 && rune <= 0xDFFF; }

// utf8.DecodeRuneInString: the rune at the start of `s` and its width in bytes. An invalid or
// truncated sequence gives (kRuneError, 1); an empty `s` gives (kRuneError, 0).
std::pair<char32_t, std::size_t> decodeRune(std::string_view s);

// utf8.DecodeLastRuneInString: the rune at the end of `s` and its width in bytes, with
// decodeRune's errors.
std::pair<char32_t, std::size_t> decodeLastRune(std::string_view s);

// Decodes the rune at `pos` and advances `pos` past it; false (leaving `pos`) when `text` holds no
// valid rune there.
bool nextRune(std::string_view text, std::size_t& pos, char32_t& rune);

// utf8.AppendRune for a valid rune (a scalar value).
void appendRune(std::string& out, char32_t rune);
std::string encodeRune(char32_t rune);
std::string encodeRunes(std::u32string_view runes);

// Offset of the first byte that does not start a valid sequence, or npos when `text` is valid
// (utf8.ValidString).
std::size_t firstInvalidUtf8(std::string_view text);

// utf8.RuneCountInString: each byte of an invalid sequence counts as one rune.
std::size_t runeCount(std::string_view text);

// Each byte that does not start a well-formed sequence (as decodeRune reads it) replaced by
// U+FFFD, as Go's encoding/json writes it, so the result is valid UTF-8; valid text is returned
// unchanged.
std::string toValidUtf8(std::string_view text);

// The longest prefix of `text` of at most `maxBytes` bytes that ends on a character boundary (an
// invalid byte is a character of its own, as decodeRune reads it).
std::string_view utf8Prefix(std::string_view text, std::size_t maxBytes);

// `text` when it has at most `maxBytes` bytes; otherwise its longest prefix that ends on a
// character boundary and leaves room for "...", followed by "..." (at most `maxBytes` bytes in
// all). A multi-byte character is never cut: valid UTF-8 in gives valid UTF-8 out.
std::string shortenUtf8(std::string_view text, std::size_t maxBytes);

}  // namespace convcheck
