#include "generators/pattern/pattern_gen.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <utility>
#include <vector>

#include "generators/pattern/choice_shrinks.h"
#include "generators/pattern/choice_source.h"
#include "generators/pattern/class_sampler.h"
#include "generators/pattern/regex_gen.h"
#include "generators/pattern/regex_parser.h"
#include "kube/go/utf8.h"

namespace convcheck {
namespace pattern {

// Everything derived from one pattern, built once and shared (read-only) by every Gen and copy.
struct CompiledPattern {
  std::string source;
  std::unique_ptr<RE2> re;
  GenTree tree;
};

namespace {

constexpr int kAttemptsPerValue = 200;
constexpr int kAttemptsForBoundsCheck = 500;
constexpr std::int64_t kRe2MaxMem = std::int64_t{64} << 20;
constexpr std::size_t kQuotedPatternLimit = 160;

std::string quote(const std::string& pattern) {
  if (pattern.size() <= kQuotedPatternLimit) return "`" + pattern + "`";
  return "`" + shortenUtf8(pattern, kQuotedPatternLimit) + "` (" + std::to_string(pattern.size()) +
         " bytes)";
}

std::string describeBounds(std::size_t minLen, std::optional<std::size_t> maxLen) {
  return "[" + std::to_string(minLen) + ", " + (maxLen ? std::to_string(*maxLen) : "unbounded") +
         "]";
}

struct Candidate {
  std::string value;
  std::vector<std::uint32_t> choices;
  std::size_t runes = 0;
};

// One string from `choices`, kept only if its length fits and RE2 matches it.
std::optional<Candidate> tryBuild(const CompiledPattern& compiled, const LengthRequest& request,
                                  ChoiceSource& choices) {
  const auto runes = buildCandidate(compiled.tree, request, choices);
  if (!runes) return std::nullopt;
  if (runes->size() < request.minLen || (request.maxLen && runes->size() > *request.maxLen)) {
    return std::nullopt;
  }
  std::string text = encodeRunes(*runes);
  if (!RE2::PartialMatch(text, *compiled.re)) return std::nullopt;
  return Candidate{std::move(text), choices.used(), runes->size()};
}

// The order shrinking descends: fewer runes, then fewer and smaller choices. It is well-founded,
// so shrinking always ends.
bool simpler(const Candidate& a, const Candidate& b) {
  if (a.value == b.value) return false;
  if (a.runes != b.runes) return a.runes < b.runes;
  if (a.choices.size() != b.choices.size()) return a.choices.size() < b.choices.size();
  return a.choices < b.choices;
}

rc::Shrinkable<std::string> shrinkableOf(std::shared_ptr<const CompiledPattern> compiled,
                                         const LengthRequest& request, Candidate candidate) {
  auto shrinks = [compiled, request](const Candidate& parent) {
    return rc::seq::mapMaybe(
        choiceVariants(parent.choices),
        [compiled, request, parent](std::vector<std::uint32_t> variant) -> rc::Maybe<Candidate> {
          ChoiceSource replay(std::move(variant));
          auto shrunk = tryBuild(*compiled, request, replay);
          if (!shrunk || !simpler(*shrunk, parent)) return rc::Nothing;
          return std::move(*shrunk);
        });
  };
  return rc::shrinkable::map(rc::shrinkable::shrinkRecur(std::move(candidate), shrinks),
                             [](const Candidate& c) { return c.value; });
}

std::optional<std::string> staticBoundsError(const CompiledPattern& compiled, std::size_t minLen,
                                             std::optional<std::size_t> maxLen) {
  const Node& root = compiled.tree.root;
  if (root.minLen >= kUnbounded) {
    return "pattern " + quote(compiled.source) +
           " cannot be generated: every alternative needs a character class that matches none "
           "of the sampled code points";
  }
  if (!lengthWindow(compiled.tree, minLen, maxLen)) {
    return "pattern " + quote(compiled.source) + " matches lengths " +
           describeBounds(root.minLen,
                          root.maxLen >= kUnbounded ? std::nullopt : std::optional(root.maxLen)) +
           " only, outside the bounds " + describeBounds(minLen, maxLen);
  }
  return std::nullopt;
}

}  // namespace
}  // namespace pattern

PatternGenerator::PatternGenerator(std::shared_ptr<const pattern::CompiledPattern> compiled)
    : compiled_(std::move(compiled)) {}

std::variant<PatternGenerator, std::string> PatternGenerator::compile(const std::string& source) {
  using namespace pattern;
  try {
    auto parsed = parseRegex(source);
    if (const auto* error = std::get_if<std::string>(&parsed)) {
      return "pattern " + quote(source) + ": " + *error;
    }
    Regex& regex = std::get<Regex>(parsed);
    RE2::Options options;
    options.set_log_errors(false);
    options.set_encoding(RE2::Options::EncodingUTF8);
    options.set_max_mem(kRe2MaxMem);
    auto re = std::make_unique<RE2>(regex.re2Source, options);
    if (!re->ok()) return "pattern " + quote(source) + ": RE2 rejects it: " + re->error();

    regex.classes.push_back(CharClassSpec{".", false, true, {}});  // padding: any rune
    auto sampled = sampleClasses(regex.classes);
    if (const auto* error = std::get_if<std::string>(&sampled)) {
      return "pattern " + quote(source) + ": " + *error;
    }
    auto compiled = std::make_shared<CompiledPattern>();
    compiled->source = source;
    compiled->re = std::move(re);
    compiled->tree =
        prepareTree(regex.root, std::move(std::get<std::vector<ClassMembers>>(sampled)),
                    regex.classes.size() - 1);
    return PatternGenerator(std::move(compiled));
  } catch (const std::exception& e) {  // e.g. std::bad_alloc
    return "pattern " + quote(source) + ": " + e.what();
  }
}

rc::Gen<std::string> PatternGenerator::gen(std::size_t minLen,
                                           std::optional<std::size_t> maxLen) const {
  return lengthGen(std::nullopt, minLen, maxLen);
}

rc::Gen<std::string> PatternGenerator::genAt(std::size_t length, std::size_t minLen,
                                             std::optional<std::size_t> maxLen) const {
  return lengthGen(length, minLen, maxLen);
}

rc::Gen<std::string> PatternGenerator::lengthGen(std::optional<std::size_t> length,
                                                 std::size_t minLen,
                                                 std::optional<std::size_t> maxLen) const {
  const std::size_t drawMin = length.value_or(minLen);
  const std::optional<std::size_t> drawMax = length ? length : maxLen;
  if (auto error = pattern::staticBoundsError(*compiled_, drawMin, drawMax)) {
    return rc::Gen<std::string>(
        [message = *error](const rc::Random&, int) -> rc::Shrinkable<std::string> {
          throw rc::GenerationFailure(message);
        });
  }
  return rc::Gen<std::string>(
      [compiled = compiled_, minLen, maxLen, drawMin, drawMax](const rc::Random& random, int size) {
        rc::Random source = random;
        for (int attempt = 0; attempt < pattern::kAttemptsPerValue; ++attempt) {
          // Small sizes give narrow length windows, which may hold no possible length (`(ab)+` at
          // length 3): after a few failures, widen them.
          const int widened = attempt < 20 ? size : std::min(100, size + (attempt - 19) * 5);
          const pattern::LengthRequest request{drawMin, drawMax, widened};
          pattern::ChoiceSource choices(source.split());
          if (auto candidate = pattern::tryBuild(*compiled, request, choices)) {
            return pattern::shrinkableOf(compiled, pattern::LengthRequest{minLen, maxLen, widened},
                                         std::move(*candidate));
          }
        }
        throw rc::GenerationFailure("pattern " + pattern::quote(compiled->source) +
                                    ": no matching string with length in " +
                                    pattern::describeBounds(drawMin, drawMax) + " after " +
                                    std::to_string(pattern::kAttemptsPerValue) + " attempts");
      });
}

std::optional<std::string> PatternGenerator::boundsError(std::size_t minLen,
                                                         std::optional<std::size_t> maxLen) const {
  if (auto error = pattern::staticBoundsError(*compiled_, minLen, maxLen)) return error;
  for (int attempt = 0; attempt < pattern::kAttemptsForBoundsCheck; ++attempt) {
    const pattern::LengthRequest request{minLen, maxLen, attempt % 2 == 0 ? 100 : 30};
    pattern::ChoiceSource choices{rc::Random(static_cast<std::uint64_t>(attempt))};
    if (pattern::tryBuild(*compiled_, request, choices)) return std::nullopt;
  }
  return "pattern " + pattern::quote(compiled_->source) +
         ": found no matching string with length in " + pattern::describeBounds(minLen, maxLen) +
         " in " + std::to_string(pattern::kAttemptsForBoundsCheck) + " attempts";
}

bool PatternGenerator::matches(const std::string& text) const {
  return RE2::PartialMatch(text, *compiled_->re);
}

const std::string& PatternGenerator::pattern() const { return compiled_->source; }

}  // namespace convcheck
