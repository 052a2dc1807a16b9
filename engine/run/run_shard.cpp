#include "engine/run/run_shard.h"

#include <algorithm>

namespace convcheck {

RunShard::RunShard(const std::vector<const Crd*>& crds, int index, int count)
    : index_(index), count_(std::max(count, 1)) {
  for (const Crd* crd : crds) {
    Kind k;
    k.name = crd->name;
    k.first = units_;
    // The versions the runner tests (KindContext: those with a schema), in its pair order.
    for (const auto& from : crd->versions)
      for (const auto& to : crd->versions)
        if (from.name != to.name && !from.schema.is_null() && !to.schema.is_null())
          k.pairs.emplace_back(from.name, to.name);
    units_ += k.units();
    kinds_.push_back(std::move(k));
  }
}

const RunShard::Kind* RunShard::find(const Crd& crd) const {
  for (const auto& k : kinds_)
    if (k.name == crd.name) return &k;
  return nullptr;
}

bool RunShard::runsKind(const Crd& crd) const {
  const Kind* k = find(crd);
  if (k == nullptr) return false;
  for (int u = 0; u < k->units(); ++u)
    if (owns(k->first + u)) return true;
  return false;
}

bool RunShard::runsPair(const Crd& crd, const std::string& from, const std::string& to) const {
  const Kind* k = find(crd);
  if (k == nullptr) return false;
  const auto at = std::find(k->pairs.begin(), k->pairs.end(), std::make_pair(from, to));
  return owns(k->first + (at == k->pairs.end() ? 0 : static_cast<int>(at - k->pairs.begin())));
}

int RunShard::kindsRun() const {
  return static_cast<int>(std::count_if(kinds_.begin(), kinds_.end(), [this](const Kind& k) {
    for (int u = 0; u < k.units(); ++u)
      if (owns(k.first + u)) return true;
    return false;
  }));
}

int RunShard::unitsRun() const {
  int n = 0;
  for (int u = 0; u < units_; ++u) n += owns(u) ? 1 : 0;
  return n;
}

}  // namespace convcheck
