// Builds candidate strings from a Regex tree and a stream of choices, lengths kept in a window.
// Used by PatternGenerator (random generation, shrink replays, bounds checks), which verifies them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "generators/pattern/choice_source.h"
#include "generators/pattern/class_sampler.h"
#include "generators/pattern/regex_ast.h"

namespace convcheck::pattern {

// Above minLen, strings stay within this many runes when the schema gives no maxLength, and
// within kMaxSpan runes even when it gives a larger one.
inline constexpr std::size_t kDefaultSpan = 64;
inline constexpr std::size_t kMaxSpan = 4096;

struct GenTree {
  Node root;                          // padded for unanchored matching, lengths analysed
  std::vector<ClassMembers> members;  // indexed by class id
  std::size_t padClass = 0;           // the class padding runes come from
};

// Prepares a parsed regex for generation: ends that are not anchored (^, $, \A, \z) get optional
// padding drawn from class `padClass` (Go's MatchString accepts any text around a match), and
// every node gets its length range.
GenTree prepareTree(const Node& root, std::vector<ClassMembers> members, std::size_t padClass);

struct LengthRequest {
  std::size_t minLen = 0;
  std::optional<std::size_t> maxLen;
  int size = 100;  // RapidCheck's size, 0..100: scales how far above the minimum lengths go
};

// The rune-length window [lo, hi] strings are built in, or nullopt when the request excludes
// every length the tree can produce.
std::optional<std::pair<std::size_t, std::size_t>> lengthWindow(const GenTree& tree,
                                                                std::size_t minLen,
                                                                std::optional<std::size_t> maxLen);

// One candidate, or nullopt when the choices ran into a dead end (an anchor after text, lengths
// that do not add up, a step budget exhausted).
std::optional<std::u32string> buildCandidate(const GenTree& tree, const LengthRequest& request,
                                             ChoiceSource& choices);

}  // namespace convcheck::pattern
