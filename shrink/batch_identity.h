// Identity inside one batch: a LIST never holds two objects with the same name or uid, so a batch
// assembled from shrunk objects gets unique ones back, the way the runner makes batches.
// Used by the case shrinker before every call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

// A repeated metadata.name becomes "<name (first 200 chars)>-<slot>"; a repeated uid is replaced
// by a uid drawn from `seed` and the slot. `slots` (one per object) are the objects' positions
// in the original batch, so the result does not depend on which objects were dropped.
std::vector<nlohmann::json> uniqueIdentities(std::vector<nlohmann::json> batch,
                                             const std::vector<std::size_t>& slots,
                                             std::uint64_t seed);

}  // namespace convcheck
