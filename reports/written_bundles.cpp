#include "reports/written_bundles.h"

namespace convcheck {

void WrittenBundles::add(const KindReport& kind, const Problem& problem, BundleRef bundle) {
  byProblem_[{kind.crdName, problem.id}] = std::move(bundle);
}

const BundleRef* WrittenBundles::find(const KindReport& kind, const Problem& problem) const {
  auto it = byProblem_.find({kind.crdName, problem.id});
  return it == byProblem_.end() ? nullptr : &it->second;
}

}  // namespace convcheck
