// The report of a fuzz run as `run` reports: every case a fuzzing process found a new problem
// with is run again (every property), tallied as run tallies its cases (one problem per
// Cause::problem, ids P1.. by severity), the first failure of every problem shrunk once, and the
// kind's report filled for reports/. Used by the fuzz engine once fuzzing is done.
#pragma once

#include <optional>
#include <vector>

#include "engine/fuzz/found_case.h"
#include "engine/fuzz/fuzz_config.h"
#include "engine/run/kind_context.h"
#include "engine/run/run_budget.h"
#include "engine/run/target_resolution.h"
#include "reports/run_report.h"

namespace convcheck {

// `makeTarget` opens the connection the cases and shrinks use; config.run.events hears each
// problem shrunk; with a `budget` (--max-total-time) shrinking stops at its shrinking end.
KindReport reportFoundCases(const KindContext& kind, const FuzzConfig& config,
                            const TargetFactory& makeTarget, const std::vector<FoundCase>& found,
                            const std::optional<RunBudget>& budget);

}  // namespace convcheck
