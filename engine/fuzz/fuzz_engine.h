// `convcheck fuzz`: a time-budgeted, resumable search for inputs on which a webhook breaks a
// property, with libFuzzer as the engine (its corpus, scheduling and mutation driver) in --jobs
// processes, and convcheck's schema-level mutator, case executor and behaviour features; what it
// finds is reported as `run` reports (problems, shrunk, bundled). Called by the fuzz job.
#pragma once

#include "engine/fuzz/fuzz_config.h"
#include "engine/fuzz/process_webhook.h"
#include "engine/run/target_resolution.h"
#include "kube/crd/crd.h"
#include "reports/run_report.h"

namespace convcheck {

// Exit code of a fuzz run stopped by SIGINT/SIGTERM (as run's: what was found is still reported,
// marked interrupted).
inline constexpr int kFuzzInterruptedExit = 130;

// Fuzzes `crd`'s webhook (or merges the corpus, config.merge) and returns the report of the
// problems found. Exit codes (report.exitCode) as `run`: 0 the budget ran out with no problem,
// 1 a problem found, 2 bad input, 3 the webhook could not be reached, 130 interrupted.
// config.run.events hears what the engine does besides libFuzzer's own lines (which go to
// stderr). `makeTarget` opens the connections to the webhook, one per case in flight (unset:
// openTarget, as run, replay and minimize do). `ownWebhook`, when set, starts a webhook for each
// fuzzing process but the first (which, like the reporting one, uses config.target's).
RunReport runFuzz(const Crd& crd, const FuzzConfig& config, const TargetFactory& makeTarget = {},
                  const StartProcessWebhook& ownWebhook = {});

}  // namespace convcheck
