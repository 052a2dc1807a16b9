// Simplifications of a recorded choice sequence (truncate, delete blocks, zero, halve, decrement).
// Used by pattern_gen to shrink generated strings by replaying the variants.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

namespace convcheck::pattern {

rc::Seq<std::vector<std::uint32_t>> choiceVariants(std::vector<std::uint32_t> base);

}  // namespace convcheck::pattern
