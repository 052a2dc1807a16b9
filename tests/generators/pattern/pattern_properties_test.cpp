// Property tests (RapidCheck): generated strings match and fit random bounds, arbitrary text never
// crashes compile or generation, and randomly composed valid patterns always generate.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "generators/pattern/pattern_gen.h"
#include "tests/generators/pattern/pattern_test_support.h"

namespace convcheck {
namespace {

using pattern_test::runes;

const std::vector<PatternGenerator>& zooGenerators() {
  static const std::vector<PatternGenerator> kGenerators = [] {
    std::vector<PatternGenerator> out;
    for (const std::string& source : pattern_test::zooPatterns()) {
      out.push_back(pattern_test::compileOrFail(source));
    }
    return out;
  }();
  return kGenerators;
}

RC_GTEST_PROP(PatternProperties, ZooStringsMatchAndFitRandomBounds, ()) {
  const auto& gens = zooGenerators();
  const PatternGenerator& gen = gens[*rc::gen::inRange<std::size_t>(0, gens.size())];
  const std::size_t minLen = *rc::gen::inRange<std::size_t>(0, 20);
  std::optional<std::size_t> maxLen;
  if (*rc::gen::arbitrary<bool>()) maxLen = *rc::gen::inRange<std::size_t>(minLen, minLen + 60);
  if (gen.boundsError(minLen, maxLen)) {
    RC_TAG("bounds excluded");
    return;
  }
  const std::string value = *gen.gen(minLen, maxLen);
  RC_ASSERT(gen.matches(value));
  RC_ASSERT(runes(value) >= minLen);
  RC_ASSERT(!maxLen || runes(value) <= *maxLen);
}

RC_GTEST_PROP(PatternProperties, ArbitraryTextNeverCrashesCompileOrGeneration, ()) {
  const std::string text =
      *rc::gen::oneOf(rc::gen::arbitrary<std::string>(),
                      rc::gen::container<std::string>(rc::gen::elementOf(
                          std::string("()[]{}|*+?.^$\\-,:<>=!#aAzZ019PpQEbBdDwWsSimsU\xC3\xA9"))));
  auto compiled = PatternGenerator::compile(text);
  if (auto* error = std::get_if<std::string>(&compiled)) {
    RC_TAG("rejected");
    RC_ASSERT(!error->empty());
    return;
  }
  RC_TAG("accepted");
  const PatternGenerator& gen = std::get<PatternGenerator>(compiled);
  if (gen.boundsError(0, 16)) return;
  const std::string value = *gen.gen(0, 16);
  RC_ASSERT(gen.matches(value));
}

// A random pattern that always matches something: anchors only at the ends, classes never empty.
std::string composeRegex(int depth) {
  static const std::vector<std::string> kAtoms = {"a",          "Z",
                                                  "7",          "\\.",
                                                  "\\*",        "\\/",
                                                  "-",          "[a-z]",
                                                  "[^abc]",     "[[:digit:]x]",
                                                  "\\d",        "\\w",
                                                  "\\s",        "\\pL",
                                                  "\\p{Greek}", ".",
                                                  "\\x{1F600}", "[\\x{100}-\\x{17F}]",
                                                  "\\D",        "[^\\n]",
                                                  "é"};
  const int form = *rc::gen::inRange(0, depth > 0 ? 7 : 1);
  switch (form) {
    case 1:
      return "(" + composeRegex(depth - 1) + ")";
    case 2:
      return "(?i:" + composeRegex(depth - 1) + ")";
    case 3:
      return "(?:" + composeRegex(depth - 1) + "|" + composeRegex(depth - 1) + ")";
    case 4:
      return composeRegex(depth - 1) + composeRegex(depth - 1);
    case 5:
    case 6: {
      const std::string op = *rc::gen::elementOf(
          std::vector<std::string>{"*", "+", "?", "{2}", "{1,3}", "{0,}", "*?", "+?"});
      return "(?:" + composeRegex(depth - 1) + ")" + op;
    }
    default:
      return *rc::gen::elementOf(kAtoms);
  }
}

RC_GTEST_PROP(PatternProperties, ComposedValidPatternsAlwaysGenerateMatchingStrings, ()) {
  std::string pattern = composeRegex(*rc::gen::inRange(1, 5));
  if (*rc::gen::arbitrary<bool>()) pattern = "^" + pattern;
  if (*rc::gen::arbitrary<bool>()) pattern += "$";
  RC_LOG() << "pattern: " << pattern << "\n";
  auto compiled = PatternGenerator::compile(pattern);
  RC_ASSERT(std::holds_alternative<PatternGenerator>(compiled));
  const PatternGenerator& gen = std::get<PatternGenerator>(compiled);
  RC_ASSERT(!gen.boundsError(0, std::nullopt).has_value());
  const std::string value = *gen.gen(0, std::nullopt);
  RC_ASSERT(gen.matches(value));
}

}  // namespace
}  // namespace convcheck
