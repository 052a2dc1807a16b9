// A planned case's objects: the seeded draw of each object and unique identities inside one batch
// (a LIST never holds two objects with the same name or uid). Used by the runner to make batches
// and by shrink/ to rebuild and re-identify them, so both draw and name objects alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "generators/object_gen.h"
#include "harness/plan/test_plan.h"

namespace convcheck {

// Object `slot` of a planned case, drawn from its version's generator: the minimal generator for
// object 0 of a Minimal case, listed objects (ObjectMix::Listed, as a LIST returns stored objects)
// throughout a LIST chunk, else any object; seeded by the case seed and the slot.
rc::Shrinkable<nlohmann::json> plannedDraw(const ObjectGenerator& generator,
                                           const PlannedCase& planned, std::size_t slot);

// The value of plannedDraw, made without its shrink tree (the runner's batches; the shrinker
// rebuilds the tree with plannedDraw).
nlohmann::json plannedObject(const ObjectGenerator& generator, const PlannedCase& planned,
                             std::size_t slot);

// A repeated metadata.name becomes "<name (first 200 chars)>-<slot>"; a repeated uid is replaced
// by a uid drawn from `seed` and the slot. `slots` (one per object) are the objects' positions
// in the original batch, so the result does not depend on which objects were dropped.
std::vector<nlohmann::json> uniqueIdentities(std::vector<nlohmann::json> batch,
                                             const std::vector<std::size_t>& slots,
                                             std::uint64_t seed);

}  // namespace convcheck
