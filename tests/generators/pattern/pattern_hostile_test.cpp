// Specifications for hostile patterns: errors come back as values, quickly, and extreme but valid
// patterns still generate in bounded time.
#include <gtest/gtest.h>

#include <chrono>

#include "generators/pattern/pattern_gen.h"
#include "tests/generators/pattern/pattern_test_support.h"
#include "tests/support/sanitizer.h"

namespace convcheck {
namespace {

using pattern_test::compileOrFail;
using pattern_test::runes;
using pattern_test::sample;

constexpr double kSlowdown = kUnderAddressSanitizer ? 10.0 : 1.0;

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string compileError(const std::string& pattern) {
  auto result = PatternGenerator::compile(pattern);
  if (std::holds_alternative<PatternGenerator>(result)) {
    ADD_FAILURE() << "compiled but should not: " << pattern.substr(0, 80);
    return {};
  }
  return std::get<std::string>(result);
}

TEST(HostilePatterns, DeepNestingGivesAnErrorValueNotAStackOverflow) {
  const auto start = std::chrono::steady_clock::now();
  const std::string error =
      compileError(std::string(100'000, '(') + "a" + std::string(100'000, ')'));
  EXPECT_NE(error.find("longer than"), std::string::npos) << error;
  const std::string error2 = compileError(std::string(5'000, '(') + std::string(5'000, ')'));
  EXPECT_NE(error2.find("nested deeper than 200"), std::string::npos) << error2;
  EXPECT_LT(secondsSince(start), 1.0 * kSlowdown);
}

TEST(HostilePatterns, NestingAtTheLimitStillGenerates) {
  const std::string nested = std::string(200, '(') + "a|b" + std::string(200, ')') + "+";
  const PatternGenerator gen = compileOrFail(nested);
  for (const std::string& value : sample(gen.gen(1, 30), 50)) EXPECT_TRUE(gen.matches(value));
}

TEST(HostilePatterns, HugeRepeatCountsGiveErrorValues) {
  EXPECT_NE(compileError("a{1000}{1000}").find("invalid nested repetition"), std::string::npos);
  EXPECT_NE(compileError("(a{1000}){1000}").find("invalid repeat count"), std::string::npos);
  EXPECT_NE(compileError("((a{100}){100}){100}").find("invalid repeat count"), std::string::npos);
  EXPECT_NE(compileError("a{99999999999}").find("invalid repeat count"), std::string::npos);
  EXPECT_NE(compileError("a{1001,}").find("invalid repeat count"), std::string::npos);
}

TEST(HostilePatterns, InvalidSyntaxGivesErrorValuesNamingThePattern) {
  for (const std::string pattern : {"(", ")", "[", "\\", "a{2,1}", "(?", "(?P<", "x**", "\\8",
                                    "[[:x:]]", "(?i", "\\p{NoSuchScript}", "\xC3\x28"}) {
    const std::string error = compileError(pattern);
    EXPECT_EQ(error.rfind("pattern `", 0), 0u) << error;
  }
}

TEST(HostilePatterns, UnknownUnicodeClassIsRejectedByRe2WithItsMessage) {
  EXPECT_NE(compileError("\\p{NoSuchScript}").find("RE2 rejects it"), std::string::npos);
}

TEST(HostilePatterns, LongestFixedRepeatGeneratesExactLength) {
  const PatternGenerator gen = compileOrFail("^.{1000}$");
  for (const std::string& value : sample(gen.gen(0, std::nullopt), 20)) {
    EXPECT_EQ(runes(value), 1000u);
    EXPECT_TRUE(gen.matches(value));
  }
}

TEST(HostilePatterns, NestedNullableStarsGenerateInBoundedTime) {
  const auto start = std::chrono::steady_clock::now();
  for (const std::string pattern :
       {"^(a*)*b$", "^((a|b)*)*c$", "^(?:(?:(?:a?)*)*)*$", "^(a?){1000}$", "^(\\b)*x(?:)*(|)+$",
        "^(^)*a$", "^((a?){30}){30}$"}) {
    const PatternGenerator gen = compileOrFail(pattern);
    for (const std::string& value : sample(gen.gen(0, 50), 50)) {
      EXPECT_TRUE(gen.matches(value)) << pattern << " " << value;
      EXPECT_LE(runes(value), 50u);
    }
  }
  EXPECT_LT(secondsSince(start), 5.0 * kSlowdown);
}

TEST(HostilePatterns, StarOverAnEmptyClassGeneratesTheRest) {
  const PatternGenerator gen = compileOrFail(R"(^[^\x00-\x{10FFFF}]*a$)");
  for (const std::string& value : sample(gen.gen(0, 5), 20)) EXPECT_EQ(value, "a");
}

TEST(HostilePatterns, ManyDistinctClassesCompileInBoundedTime) {
  std::string pattern;
  for (int i = 0; i < 1000; ++i) {
    if (i > 0) pattern += '|';
    pattern += "[\\x{" + std::to_string(1000 + i) + "}-\\x{" + std::to_string(1000 + i + 1) + "}]";
  }
  const auto start = std::chrono::steady_clock::now();
  const PatternGenerator gen = compileOrFail(pattern);
  EXPECT_LT(secondsSince(start), 5.0 * kSlowdown);
  for (const std::string& value : sample(gen.gen(0, 5), 50)) EXPECT_TRUE(gen.matches(value));
}

TEST(HostilePatterns, HugeMinLengthIsHonouredOrReported) {
  const PatternGenerator gen = compileOrFail("^[a-z]+$");
  const std::string value = gen.gen(5000, 5000)(rc::Random(3), 50).value();
  EXPECT_EQ(runes(value), 5000u);
  EXPECT_TRUE(compileOrFail("^[a-z]{1,10}$").boundsError(5000, std::nullopt).has_value());
}

}  // namespace
}  // namespace convcheck
