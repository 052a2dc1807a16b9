// Runs the conformance job: loads CRDs, plans cases per version pair, sends them, checks every
// property and returns the RunReport. Called by `convcheck run`; knows nothing of report formats.
#pragma once

#include <iosfwd>

#include "engine/run/run_config.h"
#include "engine/run/target_resolution.h"
#include "reports/run_report.h"

namespace convcheck {

// Exit code of a run stopped by SIGINT/SIGTERM (reports are still written, marked interrupted).
inline constexpr int kInterruptedExitCode = 130;

// Exit code per SPEC §7 is set in the returned report. `log` receives progress lines.
// `makeTarget` makes the targets reviews are sent to; unset = openTarget (target_kinds.h).
RunReport runConformance(const RunConfig& config, std::istream& stdinStream, std::ostream& log,
                         const TargetFactory& makeTarget = {});

}  // namespace convcheck
