// Where a run of bytes a JSON scanner passes over unchanged ends, read eight bytes at a time.
// Used by the JSON decoding in go_json_decode (the syntax check and unquoting of strings).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace convcheck {

namespace byte_runs {

constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
constexpr std::uint64_t kHighs = 0x8080808080808080ULL;

// Each flags the bytes of a word it holds in their high bit. A borrow can flag a byte above a real
// match, never one below it: the lowest flagged byte is always exact.

// Non-zero when some byte of `word` is zero (exact as to whether there is one).
constexpr std::uint64_t anyZero(std::uint64_t word) { return (word - kOnes) & ~word & kHighs; }
// Non-zero when some byte of `word` is `byte`.
constexpr std::uint64_t anyByte(std::uint64_t word, unsigned char byte) {
  return anyZero(word ^ (kOnes * byte));
}
// Non-zero when some byte of `word` is below `bound` (bound <= 0x80).
constexpr std::uint64_t anyBelow(std::uint64_t word, unsigned char bound) {
  return (word - kOnes * bound) & ~word & kHighs;
}

inline std::uint64_t wordAt(std::string_view text, std::size_t i) {
  std::uint64_t word;
  std::memcpy(&word, text.data() + i, sizeof word);
  return word;
}

// The index in `text` of the lowest flagged byte of the word read at `i` (flags non-zero): on a
// little-endian machine the lowest set bit; elsewhere the caller reads the word byte by byte.
constexpr bool kFlagsFindTheByte = std::endian::native == std::endian::little;
inline std::size_t firstFlagged(std::size_t i, std::uint64_t flags) {
  return i + static_cast<std::size_t>(std::countr_zero(flags) / 8);
}

}  // namespace byte_runs

// The first index from `i` on whose byte ends a string's plain run for encoding/json's scanner:
// a control byte (< 0x20), '"' or '\\'; text.size() when there is none. Bytes >= 0x80 are plain.
inline std::size_t plainStringRunEnd(std::string_view text, std::size_t i) {
  using namespace byte_runs;
  while (i + 8 <= text.size()) {
    const std::uint64_t word = wordAt(text, i);
    if (const std::uint64_t stop =
            anyBelow(word, 0x20) | anyByte(word, '"') | anyByte(word, '\\')) {
      if constexpr (kFlagsFindTheByte) return firstFlagged(i, stop);
      break;
    }
    i += 8;
  }
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == '"' || c == '\\') break;
    ++i;
  }
  return i;
}

// The first index from `i` on whose byte is not ASCII (>= 0x80) or is '\\'; text.size() when
// there is none: the run unquoting copies as it is.
inline std::size_t asciiRunEnd(std::string_view text, std::size_t i) {
  using namespace byte_runs;
  while (i + 8 <= text.size()) {
    const std::uint64_t word = wordAt(text, i);
    if (const std::uint64_t stop = (word & kHighs) | anyByte(word, '\\')) {
      if constexpr (kFlagsFindTheByte) return firstFlagged(i, stop);
      break;
    }
    i += 8;
  }
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80 || c == '\\') break;
    ++i;
  }
  return i;
}

}  // namespace convcheck
