// Batch-level shrinking without knowing what a batch is: the smallest subset of positions
// 0..n-1 that still fails (delta debugging by chunk removal), tried largest removals first.
// Used by the case shrinker; unit-tested on plain predicates.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace convcheck {

using Subset = std::vector<std::size_t>;  // kept positions, ascending

struct ReduceCallbacks {
  // May this subset be tried at all (e.g. its first object keeps the reported version pair)?
  // Inadmissible subsets cost nothing.
  std::function<bool(const Subset&)> admissible;
  // Does the batch of these positions still fail? Each call may cost webhook calls.
  std::function<bool(const Subset&)> stillFails;
  // Stop trying (budget spent).
  std::function<bool()> stop;
  // Subsets tried before anything else (e.g. the object the failure names, alone and after the
  // first object): the first that fails is reduced further instead of the whole set.
  std::vector<Subset> firstTries;
};

// Starts from every position, or from the first of `firstTries` that fails. Without one, first
// tries single positions in order (most failures need one object). Then removes chunks of n/2, n/4,
// ... 1 positions while the rest still fails. The result fails (or is the full set when nothing
// smaller did) and is 1-minimal when not stopped early: removing any one position of it makes it
// pass or inadmissible.
Subset reduceBatch(std::size_t n, const ReduceCallbacks& callbacks);

}  // namespace convcheck
