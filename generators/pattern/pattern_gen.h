// Generator of strings that a Kubernetes schema `pattern` accepts (Go RE2 syntax, unanchored
// matching as in regexp.MatchString). Used by the schema-driven object generator (generators/).
#pragma once

#include <rapidcheck.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <variant>

namespace convcheck {

namespace pattern {
struct CompiledPattern;
}

class PatternGenerator {
 public:
  // Parses a Go RE2 pattern and compiles it once with RE2. On syntax Go rejects or the generator
  // cannot handle (lookarounds, backreferences, \C, over-deep nesting, over-large counts, patterns
  // over 32 KiB) returns a message naming the construct and its offset. Never throws.
  static std::variant<PatternGenerator, std::string> compile(const std::string& pattern);

  // Strings the pattern matches, with length in runes within [minLen, maxLen] (maxLen unset: no
  // schema bound; strings then stay within minLen + 64 runes). Every value, and every shrink, is
  // verified with RE2; shrinks go toward short strings of simple (ASCII, lowercase) runes.
  // When no string can be found (see boundsError), the Gen throws rc::GenerationFailure when
  // used, naming the pattern and the bounds.
  rc::Gen<std::string> gen(std::size_t minLen, std::optional<std::size_t> maxLen) const;
  // Strings of exactly `length` runes (within [minLen, maxLen]) whose shrinks go down to minLen:
  // a boundary length to draw, not a bound for the value's shrinks.
  rc::Gen<std::string> genAt(std::size_t length, std::size_t minLen,
                             std::optional<std::size_t> maxLen) const;

  // Why gen(minLen, maxLen) cannot produce strings (the bounds exclude every length the pattern
  // allows, or 500 attempts found no match), or nullopt when it can.
  std::optional<std::string> boundsError(std::size_t minLen,
                                         std::optional<std::size_t> maxLen) const;

  // Go's regexp.MatchString semantics (unanchored, UTF-8), evaluated by RE2.
  bool matches(const std::string& text) const;

  const std::string& pattern() const;

 private:
  explicit PatternGenerator(std::shared_ptr<const pattern::CompiledPattern> compiled);
  // Draws of exactly `length` runes (unset: within the bounds), shrinking within the bounds.
  rc::Gen<std::string> lengthGen(std::optional<std::size_t> length, std::size_t minLen,
                                 std::optional<std::size_t> maxLen) const;

  std::shared_ptr<const pattern::CompiledPattern> compiled_;
};

}  // namespace convcheck
