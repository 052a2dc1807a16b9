// The report of a fuzz run as `run` reports: every case a fuzzing process found a new problem
// with is run again (every property), tallied as run tallies its cases (one problem per
// Cause::problem, ids P1.. by severity), the first failure of every problem shrunk once, and the
// kind's report filled for reports/. Used by the fuzz engine once fuzzing is done.
#pragma once

#include <iosfwd>
#include <vector>

#include "app/fuzz/found_case.h"
#include "app/fuzz/fuzz_config.h"
#include "app/run/kind_context.h"
#include "reports/run_report.h"

namespace convcheck {

// `log` receives a line per problem shrunk.
KindReport reportFoundCases(const KindContext& kind, const FuzzConfig& config,
                            const std::vector<FoundCase>& found, std::ostream& log);

}  // namespace convcheck
