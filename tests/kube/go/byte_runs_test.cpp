// Specification of the word-at-a-time run ends the JSON decoding uses: each agrees with the
// byte-by-byte rule at every position and length, whatever bytes surround the stopping one.
#include "kube/go/byte_runs.h"

#include <gtest/gtest.h>

#include <string>

namespace convcheck {
namespace {

std::size_t plainStringRunEndByBytes(std::string_view text, std::size_t i) {
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == '"' || c == '\\') break;
    ++i;
  }
  return i;
}

std::size_t asciiRunEndByBytes(std::string_view text, std::size_t i) {
  while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80 && text[i] != '\\') ++i;
  return i;
}

TEST(ByteRuns, PlainStringRunStopsAtControlsQuotesAndBackslashesOnly) {
  EXPECT_EQ(plainStringRunEnd("", 0), 0u);
  EXPECT_EQ(plainStringRunEnd("abcdefghijklmnop", 0), 16u);
  EXPECT_EQ(plainStringRunEnd("abcdefghijklmnop\"", 3), 16u);
  EXPECT_EQ(plainStringRunEnd("caf\xc3\xa9 \xe2\x80\xa8 and more text\\n", 0), 23u);
  EXPECT_EQ(plainStringRunEnd("0123456789\x1f", 0), 10u);
  EXPECT_EQ(plainStringRunEnd("0123456789 ~\x7f", 0), 13u);
}

TEST(ByteRuns, AsciiRunStopsAtNonAsciiAndBackslashesOnly) {
  EXPECT_EQ(asciiRunEnd("", 0), 0u);
  EXPECT_EQ(asciiRunEnd("plain \"quoted\" text\t", 0), 20u);
  EXPECT_EQ(asciiRunEnd("0123456789abc\\n", 2), 13u);
  EXPECT_EQ(asciiRunEnd("0123456789abc\xc3\xa9", 0), 13u);
  EXPECT_EQ(asciiRunEnd(std::string("\0\x01\x7f", 3), 0), 3u);
}

// A borrow flags the byte one above a match too (a '"' then '#', a '\\' then ']', a zero then
// 0x01): the run still ends at the match itself.
TEST(ByteRuns, ABorrowIntoTheNextByteDoesNotMoveTheEnd) {
  EXPECT_EQ(plainStringRunEnd("abc\"#defghijkl", 0), 3u);
  EXPECT_EQ(plainStringRunEnd("ab\\]cdefghijkl", 0), 2u);
  EXPECT_EQ(plainStringRunEnd(std::string("abcd\0\x01"
                                          "efghijkl",
                                          14),
                              0),
            4u);
  EXPECT_EQ(asciiRunEnd("abcdef\\]ghijkl", 0), 6u);
}

// Every stopping byte at every place in texts of every length up to 40, from every start: the
// word-at-a-time reading agrees with the byte-by-byte rule.
TEST(ByteRuns, AgreeWithTheByteRulesAtEveryPositionStartAndLength) {
  const std::string stops = std::string("\0\x01\x1f\"\\\x80\xc3\xff \x20!~\x7f", 13);
  for (std::size_t length = 0; length <= 40; ++length)
    for (std::size_t at = 0; at < length; ++at)
      for (char stop : stops) {
        std::string text(length, 'a');
        text[at] = stop;
        if (at + 1 < length) text[at + 1] = '\x19';  // a second stop after the first
        for (std::size_t start = 0; start <= length; ++start) {
          ASSERT_EQ(plainStringRunEnd(text, start), plainStringRunEndByBytes(text, start))
              << "length " << length << " stop " << int(static_cast<unsigned char>(stop)) << " at "
              << at << " from " << start;
          ASSERT_EQ(asciiRunEnd(text, start), asciiRunEndByBytes(text, start))
              << "length " << length << " stop " << int(static_cast<unsigned char>(stop)) << " at "
              << at << " from " << start;
        }
      }
}

}  // namespace
}  // namespace convcheck
