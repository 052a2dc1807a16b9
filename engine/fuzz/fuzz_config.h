// Everything a `convcheck fuzz` needs, parsed from the command line once: the options it shares
// with `run` (target, TLS, config file, properties, reports, corpus, shrinking) as a RunConfig,
// and its own budget, processes and mode. Built by the engine's fuzz job; read by the fuzz engine.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/run/run_budget.h"
#include "engine/run/run_config.h"
#include "engine/run/target_resolution.h"
#include "harness/fuzz/coverage_map.h"

namespace convcheck {

// What fuzzing adds to run's options (the engine's fuzz mode).
struct FuzzSettings {
  int maxTotalTime = 60;   // seconds of fuzzing; 0: no limit
  std::int64_t runs = -1;  // fuzz cases at most, per process; -1: no limit
  int jobs = 1;            // fuzzing processes side by side, sharing the corpus directory
  // Cases one process keeps in flight: one libFuzzer input is a flight of this many cases, whose
  // calls go out side by side and whose behaviour is the input's (--in-flight).
  int inFlight = 64;
  bool merge = false;  // minimise DIR/fuzz/ instead of fuzzing
  // --merge-from: other shards' corpus directories whose fuzz/ inputs and regressions/ the merge
  // joins into the corpus (left as they are).
  std::vector<std::string> mergeFrom;
  bool stopOnProblem = false;  // fuzzing ends at the first problem any process finds
  int progressSeconds = 10;    // how often each process prints its progress line
  // A webhook the job starts (-- COMMAND) gets an AFL++ coverage map (--no-coverage: not).
  bool webhookCoverage = true;
  // bench/: cases decoded, mutated and their input shapes fed back, the webhook never called
  // (the engine's own speed).
  bool withoutWebhook = false;
};

struct FuzzConfig : FuzzSettings {
  // url, transport, reviewVersion, seed, properties, acks, rawObjects, canonicalDateTimes,
  // reportPaths, reportDir, shrinkBudget, corpusDir (inputs in DIR/fuzz/, shrunk problems in
  // DIR/regressions/), maxBatchSize (objects in one case at most), commandLine, events.
  RunConfig run;
  ResolvedTarget target;  // the webhook, resolved against the CRD
  // The webhook's AFL++ coverage map, when convcheck started an instrumented webhook with it and
  // only one process fuzzes that webhook (inputs must not overlap while it is read): the edges of
  // each input's flight of cases join the feedback. Not owned.
  SharedCoverageMap* coverage = nullptr;
};

// --max-total-time as a budget for fuzzing, shrinking and the reports together
// (engine/run/run_budget.h), from config.run.started (else now); none without it.
inline std::optional<RunBudget> fuzzBudget(const FuzzConfig& config) {
  if (config.maxTotalTime <= 0) return std::nullopt;
  return RunBudget(config.run.started.value_or(std::chrono::steady_clock::now()),
                   std::chrono::seconds(config.maxTotalTime));
}

}  // namespace convcheck
