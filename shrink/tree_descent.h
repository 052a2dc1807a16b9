// Greedy descent of a RapidCheck shrink tree, as RapidCheck shrinks a failing property: take the
// first shrink that is accepted, continue from there, stop when none is. Used by the case shrinker
// for generated objects, whose trees stay schema-valid by construction.
#pragma once

#include <functional>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

namespace convcheck {

struct DescentStats {
  int accepted = 0;  // steps taken
  int examined = 0;  // candidates looked at (accepted or not)
};

// `accept` judges one candidate (and may cost webhook calls); `stop` ends the descent early.
// At most `maxWidth` candidates are examined per step, so a wide tree cannot spin forever.
rc::Shrinkable<nlohmann::json> descendShrinkTree(
    rc::Shrinkable<nlohmann::json> start,
    const std::function<bool(const rc::Shrinkable<nlohmann::json>&)>& accept,
    const std::function<bool()>& stop, DescentStats* stats = nullptr, int maxWidth = 4096);

}  // namespace convcheck
