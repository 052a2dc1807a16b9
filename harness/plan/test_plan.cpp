#include "harness/plan/test_plan.h"

#include <random>

namespace convcheck {

std::uint64_t mixSeed(std::uint64_t seed, const std::string& label) {
  std::uint64_t h = 1469598103934665603ull ^ seed;  // FNV-1a over the label, then splitmix64
  for (unsigned char c : label) h = (h ^ c) * 1099511628211ull;
  h += 0x9e3779b97f4a7c15ull;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

std::vector<PlannedCase> planPair(const PlanRequest& request) {
  std::vector<PlannedCase> cases;
  std::vector<std::string> sources;
  for (const auto& v : request.versions)
    if (v != request.to) sources.push_back(v);
  std::mt19937_64 rng(mixSeed(request.seed, request.kind + "/" + request.from + "/" + request.to));
  for (int i = 0; i < request.tests; ++i) {
    PlannedCase c;
    c.index = i;
    c.from = request.from;
    c.to = request.to;
    c.seed = rng();
    c.genSize = request.tests > 1 ? (i * 100) / (request.tests - 1) : 50;
    c.sourceVersions.push_back(request.from);
    if (i % 8 == 1) c.shape = CaseShape::Minimal;
    if (i % 4 == 3 && request.maxBatchSize > 1) {
      int size = std::uniform_int_distribution<int>(2, request.maxBatchSize)(rng);
      for (int k = 1; k < size; ++k)
        c.sourceVersions.push_back(
            sources[std::uniform_int_distribution<std::size_t>(0, sources.size() - 1)(rng)]);
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace convcheck
