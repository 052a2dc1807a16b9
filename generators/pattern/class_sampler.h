// Which runes of a fixed sample alphabet each character class holds, decided by RE2 itself.
// Used by PatternGenerator::compile to give regex_gen a finite, ordered alphabet per class.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "generators/pattern/regex_ast.h"

namespace convcheck::pattern {

// Members of one class, simplest first: a-z, 0-9, A-Z, common then other ASCII punctuation, space,
// ASCII controls, then non-ASCII (Latin-1 up to the astral planes), then code points found only by
// the class's own range hints or by wider probing. Empty when the class holds none of them.
using ClassMembers = std::vector<char32_t>;

// One entry per class, in order. Membership is asked of RE2 (one small RE2 per class), so Unicode
// classes and case folding follow RE2 exactly. Fails only when RE2 rejects a class on its own.
std::variant<std::vector<ClassMembers>, std::string> sampleClasses(
    const std::vector<CharClassSpec>& classes);

}  // namespace convcheck::pattern
