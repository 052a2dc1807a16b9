#include "engine/run/case_executors.h"

namespace convcheck {

CaseExecutors::CaseExecutors(const Crd& crd, Connections& connections, std::size_t count,
                             const CaseSettings& settings, BatchCap* cap) {
  for (std::size_t i = 0; i < count; ++i) {
    Executor e;
    e.converter = connections.open();
    e.converter->setBatchCap(cap);
    e.executor = std::make_unique<CaseExecutor>(crd, *e.converter, settings);
    executors_.push_back(std::move(e));
  }
}

void CaseExecutors::haltAll() {
  for (auto& e : executors_) e.executor->halt();
}

}  // namespace convcheck
