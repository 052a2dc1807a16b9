// Shortening long values for messages and reports never cuts a multi-byte character, and text
// from a webhook is made valid UTF-8 before it reaches a report.
#include "kube/go/utf8_text.h"

#include <gtest/gtest.h>

#include <string>

#include "kube/crd/utf8.h"

namespace convcheck {
namespace {

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
