#include "harness/plan/test_plan.h"

#include <algorithm>

namespace convcheck {

std::uint64_t mixSeed(std::uint64_t seed, const std::string& label) {
  std::uint64_t h = 1469598103934665603ull ^ seed;  // FNV-1a over the label, then splitmix64
  for (unsigned char c : label) h = (h ^ c) * 1099511628211ull;
  h += 0x9e3779b97f4a7c15ull;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

PairPlan::PairPlan(PlanRequest request)
    : request_(std::move(request)),
      rng_(mixSeed(request_.seed, request_.kind + "/" + request_.from + "/" + request_.to)) {
  for (const auto& v : request_.versions)
    if (v != request_.to) sources_.push_back(v);
}

PlannedCase PairPlan::next() {
  const int i = index_++;
  const int span = std::max(request_.tests, 2);
  PlannedCase c;
  c.index = i;
  c.from = request_.from;
  c.to = request_.to;
  c.seed = rng_();
  c.genSize = ((i % span) * 100) / (span - 1);
  c.sourceVersions.push_back(request_.from);
  if (i % 8 == 1) c.shape = CaseShape::Minimal;
  // The LIST chunk: once per span, at the batch position (3, 7, …) nearest below its middle.
  c.listChunk =
      request_.maxBatchSize > kMixedBatchObjects && i % span == (span / 2 - 3) / 4 * 4 + 3;
  if ((i % 4 == 3 || c.listChunk) && request_.maxBatchSize > 1) {
    int size = c.listChunk ? request_.maxBatchSize
                           : std::uniform_int_distribution<int>(
                                 2, std::min(request_.maxBatchSize, kMixedBatchObjects))(rng_);
    for (int k = 1; k < size; ++k)
      c.sourceVersions.push_back(
          sources_[std::uniform_int_distribution<std::size_t>(0, sources_.size() - 1)(rng_)]);
  }
  if (i >= 10 && i % 10 == 5) c.sameIdentityAs = i - 5;
  return c;
}

std::vector<PlannedCase> planPair(const PlanRequest& request) {
  PairPlan plan(request);
  std::vector<PlannedCase> cases;
  for (int i = 0; i < request.tests; ++i) cases.push_back(plan.next());
  return cases;
}

}  // namespace convcheck
