// The cases of one fuzz input in flight at once, as run keeps cases in flight: a case executor per
// case, each over a connection of its own, each case on a thread of its own; every case's result
// and behaviour features come back in the cases' order. Used by the fuzz session.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/fuzz/behaviour_features.h"
#include "engine/fuzz/fuzz_config.h"
#include "engine/run/kind_context.h"
#include "engine/run/target_resolution.h"
#include "harness/fuzz/fuzz_case.h"
#include "harness/transport/converter.h"
#include "properties/case_executor.h"

namespace convcheck {

// The kind's rules for a case executor of a fuzz run (KindContext::caseSettings, the target's
// timeout) with the caller's hooks: the construction run, replay and minimize share.
CaseSettings fuzzCaseSettings(const KindContext& kind, const FuzzConfig& config,
                              std::function<bool(const std::string&)> wants,
                              std::function<void(const Exchange&)> onCall);

// One case of a flight, run.
struct FlownCase {
  CaseResult result;
  BehaviourFeatures features;  // its calls, the shapes of its objects and its verdicts
};

class CaseFlight {
 public:
  // `size` case executors (at least one), each over a target from `makeTarget`, judging the
  // properties `wants` accepts.
  CaseFlight(const KindContext& kind, const FuzzConfig& config, const TargetFactory& makeTarget,
             std::size_t size, const std::function<bool(const std::string&)>& wants);

  std::size_t size() const { return slots_.size(); }

  // Runs `cases` (at most size() of them) side by side, case i with the request uids of
  // seeds[i]; returns what each did, in their order. A case's exception is rethrown once every
  // case ended.
  std::vector<FlownCase> run(std::span<const FuzzCase> cases,
                             const std::vector<std::uint64_t>& seeds);

 private:
  // An executor and the features its calls add: used by one case's thread at a time (run()
  // joins the threads before it reads them), so no lock guards them.
  struct Slot {
    std::unique_ptr<Converter> converter;
    BehaviourFeatures calls;
    std::unique_ptr<CaseExecutor> executor;
  };
  static FlownCase fly(Slot& slot, const FuzzCase& c, std::uint64_t seed);

  std::vector<std::unique_ptr<Slot>> slots_;
};

}  // namespace convcheck
