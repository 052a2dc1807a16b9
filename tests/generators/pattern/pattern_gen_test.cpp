// Specifications of PatternGenerator's behaviour on single patterns: matching semantics,
// padding of unanchored patterns, alphabets, flags, and length bounds.
#include "generators/pattern/pattern_gen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tests/generators/pattern/pattern_test_support.h"

namespace convcheck {
namespace {

using pattern_test::compileOrFail;
using pattern_test::hasNonAscii;
using pattern_test::runes;
using pattern_test::sample;

TEST(PatternGenerator, MatchesUnanchoredLikeGoMatchString) {
  const PatternGenerator gen = compileOrFail("b+c");
  EXPECT_TRUE(gen.matches("abbcd"));
  EXPECT_FALSE(gen.matches("ab"));
  EXPECT_EQ(gen.pattern(), "b+c");
}

TEST(PatternGenerator, DollarMatchesOnlyAtTheEndOfTextWithoutMultilineFlag) {
  EXPECT_FALSE(compileOrFail("^a$").matches("a\n"));
  EXPECT_TRUE(compileOrFail("(?m)^a$").matches("b\na\nc"));
}

TEST(PatternGenerator, AcceptsGoNamedCaptureSpellingUnknownToThisRe2) {
  const PatternGenerator gen = compileOrFail("^(?<year>[0-9]{4})$");
  EXPECT_TRUE(gen.matches("2024"));
}

TEST(PatternGenerator, PadsUnanchoredPatternsWithSurroundingText) {
  const PatternGenerator gen = compileOrFail("foo");
  const auto values = sample(gen.gen(0, 20), 300);
  EXPECT_TRUE(std::all_of(values.begin(), values.end(),
                          [](const std::string& v) { return v.find("foo") != std::string::npos; }));
  EXPECT_TRUE(
      std::any_of(values.begin(), values.end(), [](const std::string& v) { return v != "foo"; }));
  EXPECT_TRUE(
      std::any_of(values.begin(), values.end(), [](const std::string& v) { return v == "foo"; }));
}

TEST(PatternGenerator, NeverPadsFullyAnchoredPatterns) {
  for (const std::string& value : sample(compileOrFail("^abc$").gen(0, 20), 200)) {
    EXPECT_EQ(value, "abc");
  }
}

TEST(PatternGenerator, PadsOnlyTheUnanchoredAlternative) {
  const PatternGenerator gen = compileOrFail("^Hostname|IPAddress");
  const auto values = sample(gen.gen(0, 30), 400);
  EXPECT_TRUE(std::any_of(values.begin(), values.end(), [](const std::string& v) {
    return v.find("IPAddress") != std::string::npos && v != "IPAddress";
  }));
  for (const std::string& value : values) EXPECT_TRUE(gen.matches(value)) << value;
}

TEST(PatternGenerator, ReachesMinimumLengthThroughPaddingWhenThePatternIsShort) {
  const PatternGenerator gen = compileOrFail("ab");
  for (const std::string& value : sample(gen.gen(10, 12), 100)) {
    EXPECT_GE(runes(value), 10u);
    EXPECT_LE(runes(value), 12u);
    EXPECT_TRUE(gen.matches(value));
  }
}

TEST(PatternGenerator, UsesNonAsciiRunesWhereTheClassAllowsThem) {
  const auto anyRune = sample(compileOrFail("^.+$").gen(1, 40), 200);
  EXPECT_TRUE(std::any_of(anyRune.begin(), anyRune.end(), hasNonAscii));
  const auto astral = sample(compileOrFail(R"(^[\p{L}\p{N}]+$)").gen(1, 40), 200);
  EXPECT_TRUE(std::any_of(astral.begin(), astral.end(), hasNonAscii));
}

TEST(PatternGenerator, StaysAsciiWhenTheClassIsAscii) {
  for (const std::string& value : sample(compileOrFail("^[a-z0-9-]+$").gen(1, 40), 200)) {
    EXPECT_FALSE(hasNonAscii(value)) << value;
  }
}

TEST(PatternGenerator, DotSkipsNewlineUnlessDotAllFlagIsSet) {
  const auto plain = sample(compileOrFail("^.{5,}$").gen(5, 40), 200);
  EXPECT_TRUE(std::none_of(plain.begin(), plain.end(),
                           [](const std::string& v) { return v.find('\n') != std::string::npos; }));
  const auto dotAll = sample(compileOrFail("(?s)^.{20,}$").gen(20, 60), 200);
  EXPECT_TRUE(std::any_of(dotAll.begin(), dotAll.end(),
                          [](const std::string& v) { return v.find('\n') != std::string::npos; }));
}

TEST(PatternGenerator, CaseInsensitiveFlagProducesOtherCasesIncludingUnicodeFolds) {
  const auto values = sample(compileOrFail("^(?i)kiss$").gen(0, 10), 400);
  std::set<std::string> distinct(values.begin(), values.end());
  EXPECT_GT(distinct.size(), 10u);
  EXPECT_TRUE(std::any_of(values.begin(), values.end(), hasNonAscii))
      << "expected U+212A KELVIN SIGN or U+017F LONG S among the case variants";
}

TEST(PatternGenerator, NegatedClassUnderCaseFoldExcludesEveryFoldOfTheLetter) {
  const PatternGenerator gen = compileOrFail("^(?i)[^k]$");
  for (const std::string& value : sample(gen.gen(0, 1), 300)) {
    EXPECT_NE(value, "k");
    EXPECT_NE(value, "K");
    EXPECT_NE(value, "\u212A");
  }
}

TEST(PatternGenerator, RespectsLengthBoundsCountedInRunes) {
  const PatternGenerator gen = compileOrFail(R"(^[a-z\x{4E2D}]([-a-z0-9\x{4E2D}]*[a-z0-9])?$)");
  const auto values = sample(gen.gen(5, 10), 400);
  std::set<std::size_t> lengths;
  for (const std::string& value : values) {
    lengths.insert(runes(value));
    EXPECT_TRUE(gen.matches(value)) << value;
  }
  EXPECT_EQ(*lengths.begin(), 5u);
  EXPECT_EQ(*lengths.rbegin(), 10u);
  EXPECT_TRUE(std::any_of(values.begin(), values.end(),
                          [](const std::string& v) { return v.size() > runes(v); }));
}

TEST(PatternGenerator, ProducesLongStringsUpToALargeMaxLength) {
  const PatternGenerator gen =
      compileOrFail(R"(^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)");
  const auto values = sample(gen.gen(1, 253), 300);
  const auto longest =
      std::max_element(values.begin(), values.end(),
                       [](const auto& a, const auto& b) { return a.size() < b.size(); });
  EXPECT_EQ(longest->size(), 253u);
}

TEST(PatternGenerator, SizeZeroGivesTheShortestStrings) {
  const rc::Gen<std::string> gen = compileOrFail("^[a-z]{2,}x*$").gen(0, std::nullopt);
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    EXPECT_EQ(gen(rc::Random(seed), 0).value().size(), 2u);
  }
}

TEST(PatternGenerator, WordBoundariesAreSatisfiedByCheckingCandidates) {
  const PatternGenerator gen = compileOrFail(R"(\bab\b)");
  for (const std::string& value : sample(gen.gen(0, 12), 200)) {
    EXPECT_TRUE(gen.matches(value)) << value;
  }
}

TEST(PatternGenerator, ReportsBoundsThatExcludeEveryLength) {
  const PatternGenerator gen = compileOrFail("^[0-9]{2}$");
  const auto error = gen.boundsError(3, 5);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("[2, 2]"), std::string::npos) << *error;
  EXPECT_FALSE(gen.boundsError(0, 2).has_value());
  EXPECT_THROW(gen.gen(3, 5)(rc::Random(1), 50).value(), rc::GenerationFailure);
}

TEST(PatternGenerator, ReportsBoundsThatFallBetweenPossibleLengths) {
  const PatternGenerator gen = compileOrFail("^(ab)+$");
  EXPECT_TRUE(gen.boundsError(3, 3).has_value());
  EXPECT_THROW(gen.gen(3, 3)(rc::Random(1), 50).value(), rc::GenerationFailure);
  EXPECT_FALSE(gen.boundsError(3, 4).has_value());
}

TEST(PatternGenerator, ReportsPatternsThatMatchNothing) {
  EXPECT_TRUE(compileOrFail("a^b").boundsError(0, std::nullopt).has_value());
  EXPECT_TRUE(compileOrFail("a$b").boundsError(0, std::nullopt).has_value());
  const auto empty = compileOrFail(R"([^\x00-\x{10FFFF}])").boundsError(0, std::nullopt);
  ASSERT_TRUE(empty.has_value());
  EXPECT_NE(empty->find("matches none"), std::string::npos) << *empty;
}

TEST(PatternGenerator, GeneratesFromRareScriptsAndNarrowRanges) {
  for (const std::string pattern :
       {R"(^\p{Cherokee}+$)", R"(^[\x{5555}-\x{5556}]{3}$)", R"(^\p{Ogham}$)"}) {
    const PatternGenerator gen = compileOrFail(pattern);
    EXPECT_FALSE(gen.boundsError(0, std::nullopt).has_value()) << pattern;
    for (const std::string& value : sample(gen.gen(0, 8), 50)) EXPECT_TRUE(gen.matches(value));
  }
}

TEST(PatternGenerator, CopiesShareTheCompiledPattern) {
  const PatternGenerator original = compileOrFail("^[a-f]{4}$");
  const PatternGenerator copy = original;  // NOLINT: the copy is the point
  EXPECT_EQ(sample(original.gen(0, 4), 20), sample(copy.gen(0, 4), 20));
}

}  // namespace
}  // namespace convcheck
