// A generated case's batch: each object drawn from its version's generator, stamped with the
// kind's apiVersion and kind, identities unique inside the batch, and object 0 taking the identity
// of an earlier case's when the plan says so. Used by the runner, in plan order per version pair.
#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/run/kind_context.h"
#include "harness/plan/test_plan.h"

namespace convcheck {

class BatchMaker {
 public:
  // A LIST chunk stops at `maxChunkBytes` of objects (half of --max-response-size: the answer
  // holds about as much, and a larger one would be reported as too large although the API server
  // takes it).
  explicit BatchMaker(const KindContext& kind,
                      std::size_t maxChunkBytes = std::numeric_limits<std::size_t>::max())
      : kind_(kind), maxChunkBytes_(maxChunkBytes) {}

  // Forgets the identities of the last pair's cases.
  void startPair() { identities_.clear(); }
  // The batch of `planned`; cases must come in plan order (a batch may reuse an earlier identity).
  // A LIST chunk cut at maxChunkBytes holds the first of planned.sourceVersions only.
  std::vector<nlohmann::json> make(const PlannedCase& planned);

 private:
  const KindContext& kind_;
  std::size_t maxChunkBytes_;
  std::map<int, nlohmann::json> identities_;  // case index -> identity of its object 0, per pair
};

// Values (objects, arrays, scalars) in a batch, counted recursively: what a case's memory grows
// with.
std::size_t jsonValues(const std::vector<nlohmann::json>& batch);
std::size_t jsonValues(const SharedObjects& batch);

}  // namespace convcheck
