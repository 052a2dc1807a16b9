// Specifications of shrinking: every shrink still matches and fits the bounds, and shrinking a
// failing property ends at a short string of simple runes.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <functional>

#include "generators/pattern/pattern_gen.h"
#include "tests/generators/pattern/pattern_test_support.h"

namespace convcheck {
namespace {

using pattern_test::compileOrFail;
using pattern_test::runes;

// Follows the first shrink that still fails `fails`, as RapidCheck does, and returns the end.
std::string minimise(rc::Shrinkable<std::string> shrinkable,
                     const std::function<bool(const std::string&)>& fails) {
  bool progressed = true;
  while (progressed) {
    progressed = false;
    auto shrinks = shrinkable.shrinks();
    while (auto next = shrinks.next()) {
      if (fails(next->value())) {
        shrinkable = std::move(*next);
        progressed = true;
        break;
      }
    }
  }
  return shrinkable.value();
}

TEST(PatternShrinking, EveryShrinkOfEveryZooPatternStillMatchesAndFitsBounds) {
  for (const std::string& source : pattern_test::zooPatterns()) {
    const PatternGenerator gen = compileOrFail(source);
    if (gen.boundsError(2, 40)) continue;
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const auto shrinkable = gen.gen(2, 40)(rc::Random(seed), 100);
      auto shrinks = shrinkable.shrinks();
      int checked = 0;
      while (auto next = shrinks.next()) {
        const std::string value = next->value();
        ASSERT_TRUE(gen.matches(value)) << source << " shrank to " << value;
        ASSERT_GE(runes(value), 2u) << source << " shrank to " << value;
        ASSERT_LE(runes(value), 40u) << source << " shrank to " << value;
        if (++checked == 200) break;
      }
    }
  }
}

TEST(PatternShrinking, ShrinksEveryStepOfAFullMinimisationToMatchingStrings) {
  const PatternGenerator gen = compileOrFail(
      R"(^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$)");
  const std::string end = minimise(gen.gen(0, 40)(rc::Random(7), 100), [&](const std::string& v) {
    EXPECT_TRUE(gen.matches(v)) << v;
    return true;  // the property always fails: shrink as far as possible
  });
  EXPECT_EQ(end, "0");
}

TEST(PatternShrinking, EndsAtTheShortestSimplestCounterexample) {
  const PatternGenerator gen = compileOrFail(R"(^[a-z0-9]([-a-z0-9]*[a-z0-9])?$)");
  const auto longEnough = [](const std::string& v) { return v.size() >= 3; };
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto shrinkable = gen.gen(0, 63)(rc::Random(seed), 100);
    if (!longEnough(shrinkable.value())) continue;
    EXPECT_EQ(minimise(shrinkable, longEnough), "aaa");
  }
}

TEST(PatternShrinking, ShrinksNonAsciiTowardAscii) {
  const PatternGenerator gen = compileOrFail("^.{4}$");
  const auto hasNonAscii = [](const std::string& v) { return pattern_test::hasNonAscii(v); };
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto shrinkable = gen.gen(0, 4)(rc::Random(seed), 100);
    if (!hasNonAscii(shrinkable.value())) continue;
    const std::string end = minimise(shrinkable, hasNonAscii);
    EXPECT_EQ(runes(end), 4u);
    EXPECT_EQ(std::count(end.begin(), end.end(), 'a'), 3) << end;  // one non-ASCII rune stays
    EXPECT_NE(end.find("\u00e9"), std::string::npos) << end;       // the simplest one
  }
}

TEST(PatternShrinking, RapidCheckReportsAShrunkMatchingCounterexample) {
  const PatternGenerator gen = compileOrFail(R"(^([0-9]{1,5}(h|m|s|ms)){1,4}$)");
  std::string reported;  // the last failing value: RapidCheck's final counterexample
  rc::detail::TestParams params;
  params.seed = 42;
  const auto result = rc::detail::checkTestable(
      [&] {
        const std::string value = *gen.gen(0, 30);
        const bool hasMs = value.find("ms") != std::string::npos;
        if (hasMs) reported = value;
        RC_ASSERT(!hasMs);
      },
      rc::detail::TestMetadata{}, params);
  ASSERT_TRUE(result.template is<rc::detail::FailureResult>());
  EXPECT_TRUE(gen.matches(reported)) << reported;
  EXPECT_EQ(reported, "0ms");
}

}  // namespace
}  // namespace convcheck
