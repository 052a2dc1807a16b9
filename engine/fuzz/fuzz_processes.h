// The fuzzing processes: libFuzzer (which ends its process when done) in --jobs forked children
// on one input directory, each with its own seed, watched until they end, stopped at the first
// problem (--stop-on-problem) or on SIGINT/SIGTERM. Used by the fuzz engine.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/fuzz/fuzz_config.h"
#include "engine/fuzz/process_webhook.h"
#include "engine/run/kind_context.h"
#include "engine/run/run_budget.h"
#include "engine/run/target_resolution.h"

namespace convcheck {

// libFuzzer's command line for process `job` fuzzing the inputs in `inputs`.
std::vector<std::string> libFuzzerArgs(const FuzzConfig& config, const std::string& inputs,
                                       int job);

struct ChildrenOutcome {
  std::string failure;       // how the first process that ended abnormally ended, or ""
  bool interrupted = false;  // SIGINT or SIGTERM came: every process was told to stop
};

// Runs libFuzzer in `config.jobs` child processes (each with targets from `makeTarget`, or, for
// every process but the first when `ownWebhook` is set, a webhook of its own it starts) and waits
// for them; each writes what it finds to `foundDir` (found_case.h). SIGINT and SIGTERM do not end
// this process meanwhile: they stop the children (SIGUSR1, libFuzzer's graceful exit, for those
// the signal did not reach), so what they found is still reported. With a `budget`
// (--max-total-time) a child still running at its shrinking end is stopped the same way.
ChildrenOutcome fuzzInChildren(const KindContext& kind, const FuzzConfig& config,
                               const TargetFactory& makeTarget, const std::string& inputs,
                               const std::string& foundDir, const std::optional<RunBudget>& budget,
                               const StartProcessWebhook& ownWebhook = {});

}  // namespace convcheck
