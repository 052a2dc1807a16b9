// UTF-8 as Go's unicode/utf8 reads it: each width decodes, every ill-formed sequence is one
// RuneError byte, a valid U+FFFD is not an error, and counting and validity follow from that.
// Shortening long values never cuts a multi-byte character, and text from a webhook is made valid
// UTF-8 before it reaches a report.
#include "kube/go/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace convcheck {
namespace {

using Decoded = std::pair<char32_t, std::size_t>;

TEST(Utf8, DecodesEachWidth) {
  EXPECT_EQ(decodeRune("a"), Decoded(U'a', 1));
  EXPECT_EQ(decodeRune("\xC3\xA9"), Decoded(0xE9, 2));
  EXPECT_EQ(decodeRune("\xE6\x97\xA5!"), Decoded(0x65E5, 3));
  EXPECT_EQ(decodeRune("\xF0\x9F\x98\x80"), Decoded(0x1F600, 4));
  EXPECT_EQ(decodeRune(""), Decoded(kRuneError, 0));
}

TEST(Utf8, EveryIllFormedSequenceIsOneErrorByte) {
  for (const char* bad : {"\x80", "\xC0\x80", "\xC1\xBF", "\xE0\x80\x80", "\xED\xA0\x80",
                          "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xE6\x97", "\xC3("}) {
    EXPECT_EQ(decodeRune(bad), Decoded(kRuneError, 1)) << ::testing::PrintToString(bad);
    std::size_t pos = 0;
    char32_t rune = 0;
    EXPECT_FALSE(nextRune(bad, pos, rune));
    EXPECT_EQ(pos, 0u);
  }
}

TEST(Utf8, AnEncodedReplacementCharacterIsValid) {
  std::size_t pos = 0;
  char32_t rune = 0;
  ASSERT_TRUE(nextRune("\xEF\xBF\xBD", pos, rune));
  EXPECT_EQ(rune, kRuneError);
  EXPECT_EQ(pos, 3u);
  EXPECT_EQ(firstInvalidUtf8("\xEF\xBF\xBD"), std::string_view::npos);
}

TEST(Utf8, FirstInvalidNamesTheOffset) {
  EXPECT_EQ(firstInvalidUtf8("ok \xC3\xA9 \xE6\x97\xA5"), std::string_view::npos);
  EXPECT_EQ(firstInvalidUtf8("ab\xC3\xA9\xED\xA0\x80"), 4u);
  EXPECT_EQ(firstInvalidUtf8("\xE6\x97"), 0u);
}

TEST(Utf8, RuneCountCountsEachInvalidByteOnce) {
  EXPECT_EQ(runeCount("\xE6\x97\xA5\xE6\x9C\xAC"), 2u);
  EXPECT_EQ(runeCount("a\x80\x80"
                      "b"),
            4u);
  EXPECT_EQ(runeCount("\xE6\x97"), 2u);
  EXPECT_EQ(runeCount(""), 0u);
}

TEST(Utf8, DecodesTheLastRuneOfEachWidth) {
  EXPECT_EQ(decodeLastRune("xa"), Decoded(U'a', 1));
  EXPECT_EQ(decodeLastRune("x\xC3\xA9"), Decoded(0xE9, 2));
  EXPECT_EQ(decodeLastRune("\xE6\x97\xA5"), Decoded(0x65E5, 3));
  EXPECT_EQ(decodeLastRune("ab\xF0\x9F\x98\x80"), Decoded(0x1F600, 4));
  EXPECT_EQ(decodeLastRune(""), Decoded(kRuneError, 0));
  // A truncated or stray tail is one error byte, as at the start.
  EXPECT_EQ(decodeLastRune("a\xE6\x97"), Decoded(kRuneError, 1));
  EXPECT_EQ(decodeLastRune("a\x80"), Decoded(kRuneError, 1));
  EXPECT_EQ(decodeLastRune("\x80\x80\x80\x80\x80"), Decoded(kRuneError, 1));
}

TEST(Utf8, EncodingDecodesBack) {
  for (char32_t rune : {char32_t{0}, char32_t{0x7F}, char32_t{0x80}, char32_t{0x7FF},
                        char32_t{0x800}, char32_t{0xFFFF}, char32_t{0x10000}, char32_t{0x10FFFF}}) {
    const std::string text = encodeRune(rune);
    EXPECT_EQ(decodeRune(text), Decoded(rune, text.size())) << static_cast<unsigned>(rune);
  }
  EXPECT_EQ(encodeRunes(U"a\u00E9\U0001F600"), "a\xC3\xA9\xF0\x9F\x98\x80");
}

TEST(Utf8Prefix, EndsOnACharacterBoundaryWithinTheLimit) {
  EXPECT_EQ(utf8Prefix("abc", 5), "abc");
  EXPECT_EQ(utf8Prefix("abc", 2), "ab");
  const std::string text = "a\xC3\xA9\xE2\x82\xAC";  // 1 + 2 + 3 bytes
  EXPECT_EQ(utf8Prefix(text, 0), "");
  EXPECT_EQ(utf8Prefix(text, 1), "a");
  EXPECT_EQ(utf8Prefix(text, 2), "a");
  EXPECT_EQ(utf8Prefix(text, 3), "a\xC3\xA9");
  EXPECT_EQ(utf8Prefix(text, 5), "a\xC3\xA9");
  EXPECT_EQ(utf8Prefix(text, 6), text);
  // Invalid bytes are one character each, as decodeRune reads them.
  EXPECT_EQ(utf8Prefix("\xFF\xFEx", 2), "\xFF\xFE");
}

TEST(ShortenUtf8, ShortTextIsReturnedUnchanged) {
  EXPECT_EQ(shortenUtf8("abc", 3), "abc");
  EXPECT_EQ(shortenUtf8("", 0), "");
}

TEST(ShortenUtf8, LongTextEndsWithAnEllipsisWithinTheLimit) {
  EXPECT_EQ(shortenUtf8("abcdefghij", 8), "abcde...");
}

TEST(ShortenUtf8, NeverCutsAMultiByteCharacterAtAnyBoundary) {
  // Two-, three- and four-byte characters at every offset relative to the cut.
  for (const std::string ch : {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"}) {
    for (std::size_t prefix = 0; prefix < 6; ++prefix) {
      std::string text = std::string(prefix, 'a');
      for (int k = 0; k < 20; ++k) text += ch;
      for (std::size_t limit = 3; limit < text.size(); ++limit) {
        const std::string out = shortenUtf8(text, limit);
        EXPECT_LE(out.size(), limit) << limit;
        EXPECT_EQ(firstInvalidUtf8(out), std::string::npos)
            << "prefix " << prefix << " limit " << limit;
        EXPECT_EQ(out.substr(out.size() - 3), "...");
      }
    }
  }
}

TEST(ToValidUtf8, ReplacesEachInvalidByteAndKeepsValidText) {
  EXPECT_EQ(toValidUtf8("caf\xC3\xA9 \xE2\x82\xAC"), "caf\xC3\xA9 \xE2\x82\xAC");
  EXPECT_EQ(toValidUtf8("a\xC3"), "a\xEF\xBF\xBD");                // truncated sequence
  EXPECT_EQ(toValidUtf8("\xFF\xFE"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // one U+FFFD per byte
  EXPECT_EQ(toValidUtf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_EQ(toValidUtf8("\xEF\xBF\xBD"), "\xEF\xBF\xBD");  // a real U+FFFD stays one
}

}  // namespace
}  // namespace convcheck
