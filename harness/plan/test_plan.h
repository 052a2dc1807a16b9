// The test plan: which cases to run for one ordered version pair, each fully determined by a seed.
// Built by the runner per (kind, from, to); read by the runner to generate and send batches.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace convcheck {

enum class CaseShape { Any, Minimal };

// Objects in one chunk of a paginated LIST: kubectl and client-go's pagers ask for 500, and
// kube-apiserver converts a chunk's objects in one review. The default largest batch.
inline constexpr int kListChunkObjects = 500;
// The largest batch of an ordinary batch case (the LIST-sized cases aside).
inline constexpr int kMixedBatchObjects = 32;

struct PlannedCase {
  int index = 0;
  std::string from;                         // version of the first object
  std::string to;                           // desired version
  std::vector<std::string> sourceVersions;  // one per object of the batch; [0] == from
  std::uint64_t seed = 0;                   // everything random in the case derives from it
  int genSize = 0;                          // RapidCheck size, 0 (small) .. 100 (large)
  CaseShape shape = CaseShape::Any;
  // When set, object 0 takes the namespace/name/uid of object 0 of that earlier case (with new
  // content): a webhook that caches by name, or mixes up objects, shows it here.
  std::optional<int> sameIdentityAs;
  // A LIST-sized batch (maxBatchSize objects, more than kMixedBatchObjects) of objects as a LIST
  // returns them (every one with managedFields, resourceVersion, …): as many bytes as a real
  // LIST chunk of the kind.
  bool listChunk = false;
};

struct PlanRequest {
  std::string kind;
  std::string from;
  std::string to;
  std::vector<std::string> versions;  // every testable version of the kind
  int tests = 0;                      // cases in the span sizes grow over (the run's --tests)
  int maxBatchSize = kListChunkObjects;
  std::uint64_t seed = 0;
};

// The cases of one pair, made one at a time (a --duration run may use millions).
// Single objects most of the time (what the API server sends), every fourth case a batch of
// 2..min(maxBatchSize, kMixedBatchObjects) objects of mixed source versions, every eighth a
// minimal object, every tenth (from the tenth on) an object sharing its identity with an earlier
// case; sizes grow from small to large over the first `request.tests` cases (then cycle) so early
// failures are small. When maxBatchSize is larger than kMixedBatchObjects, the batch case nearest
// the middle of every `request.tests` cases is a LIST chunk of maxBatchSize objects instead
// (several MB of medium-sized objects, as the API server sends a LIST).
class PairPlan {
 public:
  explicit PairPlan(PlanRequest request);
  PlannedCase next();

 private:
  PlanRequest request_;
  std::vector<std::string> sources_;
  std::mt19937_64 rng_;
  int index_ = 0;
};

// The first request.tests cases of PairPlan.
std::vector<PlannedCase> planPair(const PlanRequest& request);

// A 64-bit mix of a seed and a label, for independent deterministic streams.
std::uint64_t mixSeed(std::uint64_t seed, const std::string& label);

}  // namespace convcheck
