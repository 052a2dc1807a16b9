// The conformance run (`convcheck run`, the engine's run mode): the CRDs it selects, each kind's
// cases planned per version pair, sent, judged by every property and shrunk, into the RunReport.
// Used by the engine (engine/api); knows nothing of report formats.
#pragma once

#include "engine/run/run_config.h"
#include "engine/run/webhook_access.h"
#include "kube/crd/crd_loader.h"
#include "reports/run_report.h"

namespace convcheck {

// Exit code of a run stopped by SIGINT/SIGTERM (reports are still written, marked interrupted).
inline constexpr int kInterruptedExitCode = 130;

// Runs the kinds of `loaded` (which holds no errors) that `config` selects, reaching each through
// `access`. Exit code per SPEC §7 in the returned report; progress and notes go to config.events.
RunReport runConformance(const RunConfig& config, const LoadResult& loaded, WebhookAccess& access);

// The report of a run whose CRDs could not be loaded (exit code 2, the errors as fatalError).
RunReport failedToLoad(const RunConfig& config, const LoadResult& loaded);

}  // namespace convcheck
