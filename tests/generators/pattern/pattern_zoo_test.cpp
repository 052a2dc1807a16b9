// Specifications over the zoo of patterns: every one compiles and every generated string matches,
// within bounds; also measures generation speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "generators/pattern/pattern_gen.h"
#include "tests/generators/pattern/pattern_test_support.h"

namespace convcheck {
namespace {

using pattern_test::runes;
using pattern_test::zooPatterns;

class ZooPattern : public testing::TestWithParam<std::size_t> {};

TEST_P(ZooPattern, EveryGeneratedStringMatchesWithoutBounds) {
  const std::string& source = zooPatterns()[GetParam()];
  const PatternGenerator gen = pattern_test::compileOrFail(source);
  ASSERT_FALSE(gen.boundsError(0, std::nullopt).has_value()) << *gen.boundsError(0, std::nullopt);
  for (const std::string& value : pattern_test::sample(gen.gen(0, std::nullopt), 300)) {
    ASSERT_TRUE(gen.matches(value)) << source << " produced " << value;
  }
}

TEST_P(ZooPattern, EveryGeneratedStringMatchesAndFitsTightBounds) {
  const std::string& source = zooPatterns()[GetParam()];
  const PatternGenerator gen = pattern_test::compileOrFail(source);
  for (const auto& [minLen, maxLen] :
       {std::pair<std::size_t, std::size_t>{3, 12}, {0, 2}, {20, 30}}) {
    if (gen.boundsError(minLen, maxLen)) continue;  // the pattern has no string of those lengths
    for (const std::string& value : pattern_test::sample(gen.gen(minLen, maxLen), 100)) {
      ASSERT_TRUE(gen.matches(value)) << source << " produced " << value;
      ASSERT_GE(runes(value), minLen) << source << " produced " << value;
      ASSERT_LE(runes(value), maxLen) << source << " produced " << value;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Zoo, ZooPattern, testing::Range<std::size_t>(0, zooPatterns().size()));

TEST(ZooSpeed, GeneratesAtLeastAThousandStringsPerSecondForEveryPattern) {
  constexpr int kPerPattern = 400;
  std::vector<std::pair<double, std::string>> rates;  // strings/s, pattern
  double totalSeconds = 0;
  for (const std::string& source : zooPatterns()) {
    const PatternGenerator gen = pattern_test::compileOrFail(source);
    const auto start = std::chrono::steady_clock::now();
    const auto values = pattern_test::sample(gen.gen(0, 64), kPerPattern);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    totalSeconds += seconds;
    rates.emplace_back(static_cast<double>(values.size()) / seconds, source);
  }
  std::sort(rates.begin(), rates.end());
  const double overall = static_cast<double>(kPerPattern * rates.size()) / totalSeconds;
  std::cout << "[ zoo speed ] " << kPerPattern * rates.size() << " strings (max 64 runes) from "
            << rates.size() << " patterns: " << static_cast<long>(overall)
            << " strings/s overall\n";
  for (std::size_t i = 0; i < 5 && i < rates.size(); ++i) {
    std::cout << "[ zoo speed ]   slowest: " << static_cast<long>(rates[i].first) << " strings/s  "
              << rates[i].second << "\n";
  }
  RecordProperty("strings_per_second", std::to_string(static_cast<long>(overall)));
  EXPECT_GT(rates.front().first, 1000.0) << rates.front().second;
}

TEST(ZooSpeed, CompilesEveryZooPatternInUnderASecondTotal) {
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& source : zooPatterns()) pattern_test::compileOrFail(source);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ zoo speed ] compiled " << zooPatterns().size() << " patterns in " << seconds
            << " s\n";
  EXPECT_LT(seconds, 1.0);
}

}  // namespace
}  // namespace convcheck
