// The case executors of a kind's run: one per case that may be in flight at once, each over a
// connection of its own, all judging with the same settings. Used by the runner and its case
// window.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "engine/run/connections.h"
#include "properties/case_executor.h"

namespace convcheck {

class CaseExecutors {
 public:
  // Opens `count` connections (in order: executor 0's first), whose calls `cap` sees and whose
  // forward calls it cuts when a case asks (CaseExecutor::run with BatchCut::ToCap); may be null.
  CaseExecutors(const Crd& crd, Connections& connections, std::size_t count,
                const CaseSettings& settings, BatchCap* cap = nullptr);

  std::size_t size() const { return executors_.size(); }
  CaseExecutor& operator[](std::size_t i) { return *executors_[i].executor; }
  // Every executor makes no further call (the circuit breaker); safe from any thread.
  void haltAll();

 private:
  struct Executor {
    std::unique_ptr<Converter> converter;
    std::unique_ptr<CaseExecutor> executor;
  };
  std::vector<Executor> executors_;
};

}  // namespace convcheck
