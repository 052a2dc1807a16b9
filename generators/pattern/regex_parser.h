// Parser of Go's regexp syntax (regexp/syntax with Perl flags, i.e. RE2) into a Regex tree.
// Used by PatternGenerator::compile; rejects what Go rejects, naming the offending construct.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

#include "generators/pattern/regex_ast.h"

namespace convcheck::pattern {

// Bounds that keep hostile patterns cheap: parsing and every later tree walk are linear in the
// pattern and recurse at most a few frames per nesting level.
struct ParseLimits {
  std::size_t maxPatternBytes = 32 * 1024;
  int maxNesting = 200;  // groups nested inside each other
  std::size_t maxNodes = 50'000;
};

// Returns the tree, or a message of the form "offset N: <what>".
std::variant<Regex, std::string> parseRegex(std::string_view pattern,
                                            const ParseLimits& limits = {});

}  // namespace convcheck::pattern
