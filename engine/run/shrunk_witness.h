// What a problem's shrunk counterexample shows when every property judges it, the evidence that
// decides which problems are one defect (engine/run/tally.h: setProblemWitness). Used by the
// runner's shrink queue and the fuzz engine's report, after each shrink.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/run/kind_context.h"
#include "shrink/run_shrinker.h"

namespace convcheck {

// Runs `batch` as the job's case (its target version and seed), from `from`, judging the
// properties `wants` accepts.
using JudgedCaseRun =
    std::function<CaseResult(const std::vector<nlohmann::json>& batch, const std::string& from,
                             const std::function<bool(const std::string&)>& wants)>;

// The problems the shrunk case of `example` shows with every property `wanted` judging it, and
// kDropsZeroValues (zero_value_probe.h) when its lost field is lost only as "", 0 or false: one
// or two more runs of the case. Empty when the example did not shrink.
std::vector<std::string> witnessShrunk(const ShrunkExample& example, const ShrinkJob& job,
                                       const KindContext& kind, const JudgedCaseRun& run,
                                       const std::function<bool(const std::string&)>& wanted);

}  // namespace convcheck
