// Specifications of the Go RE2 syntax parser: the tree it builds and what it rejects.
#include "generators/pattern/regex_parser.h"

#include <gtest/gtest.h>

#include <string>

namespace convcheck::pattern {
namespace {

using Kind = Node::Kind;

Regex parseOk(const std::string& pattern) {
  auto result = parseRegex(pattern);
  if (auto* error = std::get_if<std::string>(&result)) {
    ADD_FAILURE() << pattern << ": " << *error;
    return {};
  }
  return std::get<Regex>(std::move(result));
}

std::string parseError(const std::string& pattern) {
  auto result = parseRegex(pattern);
  if (std::holds_alternative<Regex>(result)) {
    ADD_FAILURE() << pattern << " parsed but should not";
    return {};
  }
  return std::get<std::string>(result);
}

TEST(RegexParser, BuildsConcatOfAnchorsClassesAndOptionalGroup) {
  const Regex regex = parseOk("^[a-z]([-a-z0-9]*[a-z0-9])?$");
  ASSERT_EQ(regex.root.kind, Kind::kConcat);
  ASSERT_EQ(regex.root.children.size(), 4u);
  EXPECT_EQ(regex.root.children[0].kind, Kind::kAssert);
  EXPECT_EQ(regex.root.children[0].assertion, AssertKind::kBeginText);
  EXPECT_EQ(regex.root.children[1].kind, Kind::kClass);
  const Node& optional = regex.root.children[2];
  ASSERT_EQ(optional.kind, Kind::kRepeat);
  EXPECT_EQ(optional.min, 0);
  EXPECT_EQ(optional.max, 1);
  EXPECT_EQ(optional.children[0].kind, Kind::kGroup);
  EXPECT_EQ(optional.children[0].capture, 1);
  EXPECT_EQ(regex.root.children[3].assertion, AssertKind::kEndText);
  ASSERT_EQ(regex.classes.size(), 3u);
  EXPECT_EQ(regex.classes[0].source, "[a-z]");
  EXPECT_EQ(regex.classes[1].source, "[-a-z0-9]");
}

TEST(RegexParser, SharesOneClassEntryForRepeatedIdenticalClasses) {
  const Regex regex = parseOk("[a-z][a-z]x[a-z]");
  EXPECT_EQ(regex.classes.size(), 1u);
}

TEST(RegexParser, ParsesCountedRepetitionsIncludingOpenEnded) {
  const Regex regex = parseOk("a{2}b{3,}c{4,5}");
  ASSERT_EQ(regex.root.children.size(), 3u);
  EXPECT_EQ(regex.root.children[0].min, 2);
  EXPECT_EQ(regex.root.children[0].max, 2);
  EXPECT_EQ(regex.root.children[1].min, 3);
  EXPECT_EQ(regex.root.children[1].max, -1);
  EXPECT_EQ(regex.root.children[2].min, 4);
  EXPECT_EQ(regex.root.children[2].max, 5);
}

TEST(RegexParser, TreatsBraceThatIsNotACountAsLiteral) {
  const Regex regex = parseOk("a{,5}");
  ASSERT_EQ(regex.root.kind, Kind::kConcat);
  ASSERT_EQ(regex.root.children.size(), 5u);
  EXPECT_EQ(regex.root.children[1].kind, Kind::kLiteral);
  EXPECT_EQ(regex.root.children[1].rune, U'{');
}

TEST(RegexParser, ScopesInlineFlagsToTheEnclosingGroup) {
  const Regex regex = parseOk("((?i)a|b)c");
  const Node& alternation = regex.root.children[0].children[0];
  ASSERT_EQ(alternation.kind, Kind::kAlternate);
  EXPECT_EQ(alternation.children[0].kind, Kind::kClass);  // a, case-folded
  EXPECT_EQ(alternation.children[1].kind, Kind::kClass);  // b: flags persist past '|'
  EXPECT_TRUE(regex.classes[alternation.children[1].classId].foldCase);
  EXPECT_EQ(regex.root.children[1].kind, Kind::kLiteral);  // c: outside the group
}

TEST(RegexParser, ScopesColonFlagGroupsToTheirBody) {
  const Regex regex = parseOk("(?i:a)b");
  EXPECT_EQ(regex.root.children[0].children[0].kind, Kind::kClass);
  EXPECT_EQ(regex.root.children[1].kind, Kind::kLiteral);
}

TEST(RegexParser, DecodesHexOctalAndControlEscapes) {
  const Regex regex = parseOk(R"(\x41\x{1F600}\101\0\t\/)");
  ASSERT_EQ(regex.root.children.size(), 6u);
  EXPECT_EQ(regex.root.children[0].rune, U'A');
  EXPECT_EQ(regex.root.children[1].rune, U'\U0001F600');
  EXPECT_EQ(regex.root.children[2].rune, U'A');
  EXPECT_EQ(regex.root.children[3].rune, U'\0');
  EXPECT_EQ(regex.root.children[4].rune, U'\t');
  EXPECT_EQ(regex.root.children[5].rune, U'/');
}

TEST(RegexParser, QuotesEverythingBetweenQAndE) {
  const Regex regex = parseOk(R"(\Qa.*\E+)");
  ASSERT_EQ(regex.root.children.size(), 3u);
  EXPECT_EQ(regex.root.children[1].rune, U'.');
  EXPECT_EQ(regex.root.children[2].kind, Kind::kRepeat);  // + applies to the last quoted rune
  EXPECT_EQ(regex.root.children[2].children[0].rune, U'*');
}

TEST(RegexParser, RecordsNamedCapturesInBothSpellings) {
  const Regex regex = parseOk("(?P<a>x)(?<b>y)");
  EXPECT_EQ(regex.captureCount, 2);
  EXPECT_EQ(regex.root.children[0].name, "a");
  EXPECT_EQ(regex.root.children[1].name, "b");
  EXPECT_EQ(regex.re2Source, "(?P<a>x)(?P<b>y)");
}

TEST(RegexParser, MapsMultilineAnchorsToLineAssertions) {
  const Regex regex = parseOk("(?m)^a$");
  EXPECT_EQ(regex.root.children[0].assertion, AssertKind::kBeginLine);
  EXPECT_EQ(regex.root.children[2].assertion, AssertKind::kEndLine);
}

TEST(RegexParser, KeepsBracketClassesWithPosixPerlAndUnicodeItemsVerbatim) {
  const Regex regex = parseOk(R"([[:alpha:]\d\p{Greek}\PL_-])");
  ASSERT_EQ(regex.classes.size(), 1u);
  EXPECT_EQ(regex.classes[0].source, R"([[:alpha:]\d\p{Greek}\PL_-])");
}

TEST(RegexParser, CollectsRangeEndsAsHints) {
  const Regex regex = parseOk(R"([\x{1F000}-\x{1F0FF}])");
  ASSERT_EQ(regex.classes.size(), 1u);
  const auto& hints = regex.classes[0].hints;
  EXPECT_NE(std::find(hints.begin(), hints.end(), U'\U0001F000'), hints.end());
  EXPECT_NE(std::find(hints.begin(), hints.end(), U'\U0001F0FF'), hints.end());
}

struct Rejection {
  std::string pattern;
  std::string mentions;
};

class RegexParserRejects : public testing::TestWithParam<Rejection> {};

TEST_P(RegexParserRejects, NamesTheConstruct) {
  const std::string error = parseError(GetParam().pattern);
  EXPECT_NE(error.find(GetParam().mentions), std::string::npos) << error;
  EXPECT_EQ(error.rfind("offset ", 0), 0u) << error;
}

INSTANTIATE_TEST_SUITE_P(
    GoSyntaxErrors, RegexParserRejects,
    testing::Values(
        Rejection{"(?=a)", "lookahead"}, Rejection{"(?!a)", "negative lookahead"},
        Rejection{"(?<=a)b", "lookbehind"}, Rejection{"(?<!a)b", "negative lookbehind"},
        Rejection{"(a)\\1", "backreferences"}, Rejection{"(?P<n>a)(?P=n)", "named backreference"},
        Rejection{"(?>a)", "atomic group"}, Rejection{"\\C", "\\C"}, Rejection{"a\\Z", "\\Z"},
        Rejection{"\\e", "invalid escape"}, Rejection{"(a", "missing closing )"},
        Rejection{"a)", "unexpected )"}, Rejection{"[a-z", "missing closing ]"},
        Rejection{"[z-a]", "invalid character class range"},
        Rejection{"[[:bogus:]]", "invalid character class range"},
        Rejection{"a**", "invalid nested repetition operator"},
        Rejection{"a{1000}{1000}", "invalid nested repetition operator"},
        Rejection{"*a", "missing argument to repetition operator"},
        Rejection{"a|?", "missing argument to repetition operator"},
        Rejection{"a{1001}", "invalid repeat count"}, Rejection{"a{3,2}", "invalid repeat count"},
        Rejection{"(a{1000}){1000}", "invalid repeat count"},
        Rejection{"(?P<a>x)(?P<a>y)", "duplicate capture group name"},
        Rejection{"(?P<a-b>x)", "invalid named capture"},
        Rejection{"(?z)", "invalid or unsupported Perl syntax"},
        Rejection{"(?i-)", "invalid or unsupported Perl syntax"},
        Rejection{"\\x{110000}", "invalid escape"}, Rejection{"\\xZZ", "invalid escape"},
        Rejection{"\\p{", "invalid character class range"}, Rejection{"ab\\", "trailing backslash"},
        Rejection{std::string("a\xff"), "invalid UTF-8"}));

TEST(RegexParser, RejectsNestingDeeperThanTheLimit) {
  const std::string deep = std::string(201, '(') + "a" + std::string(201, ')');
  EXPECT_NE(parseError(deep).find("nested deeper than 200"), std::string::npos);
  const std::string allowed = std::string(200, '(') + "a" + std::string(200, ')');
  EXPECT_TRUE(std::holds_alternative<Regex>(parseRegex(allowed)));
}

TEST(RegexParser, RejectsPatternsLongerThanTheLimit) {
  EXPECT_NE(parseError(std::string(40'000, 'a')).find("longer than 32768 bytes"),
            std::string::npos);
}

}  // namespace
}  // namespace convcheck::pattern
