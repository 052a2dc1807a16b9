// `convcheck replay BUNDLE` as a job of the engine: exactly the case of a reproduction bundle
// (same objects, target version, seed and property) sent again, to the webhook where the bundle
// was found or where the options say, and judged as it was. Used by the engine API.
#pragma once

#include <string>

#include "engine/api/verdict.h"
#include "engine/run/run_config.h"
#include "engine/run/target_flags.h"
#include "engine/run/webhook_access.h"

namespace convcheck {

// What replay is asked (the engine's replay mode).
struct ReplayMode {
  std::string bundle;  // the bundle's directory or its bundle.json
  TargetFlags target;  // how to reach the webhook; unset fields: the bundle's
};

// `config` gives the cluster, --service-proxy and --port-forward; `access` -- COMMAND and --wait.
// The verdict's exit code: 1 the case still fails, 0 it passes now, 2 an unreadable bundle or
// bad options, 3 the webhook could not be reached.
Verdict replayJob(const ReplayMode& mode, RunConfig config, AccessOptions access);

}  // namespace convcheck
