// convcheck's engine, its one entry: options in, events out, a verdict. run, fuzz, replay and
// minimize are modes of it (engine/run, engine/fuzz, engine/replay, engine/minimize), as
// Schemathesis' Engine.execute/Engine.fuzz and libFuzzer's one driver are; the commands (app/)
// parse their options into it and render what it tells and returns.
#pragma once

#include <istream>
#include <string>
#include <variant>

#include "engine/api/events.h"
#include "engine/api/verdict.h"
#include "engine/fuzz/fuzz_config.h"
#include "engine/minimize/object_minimizer.h"
#include "engine/replay/bundle_replay.h"
#include "engine/run/run_config.h"
#include "engine/run/webhook_access.h"

namespace convcheck {

// The conformance run: every selected kind, every version pair (RunConfig says it all).
struct RunMode {};
// The coverage-guided search; run's options (the target, properties, reports …) come from
// EngineOptions::config.
using FuzzMode = FuzzSettings;

using EngineMode = std::variant<RunMode, FuzzMode, ReplayMode, MinimizeMode>;

struct EngineOptions {
  EngineMode mode = RunMode{};
  // The CRD, the target (url, transport, review version, kubectl), seed, properties, config
  // file, reports, shrinking, corpus, the stop flag: what the modes share (each reads its part).
  RunConfig config;
  AccessOptions access;           // -- COMMAND, --wait, an in-process function
  std::istream* input = nullptr;  // read for a CRD or object given as "-" (none: nothing)
  std::string version;            // convcheck's, recorded in reports and bundles
};

// Runs the job `options` ask for, telling `events` as it goes (may be empty), and returns its
// verdict. Never throws for what the webhook, the CRD or the options do.
Verdict execute(EngineOptions options, const EventSink& events = {});

}  // namespace convcheck
