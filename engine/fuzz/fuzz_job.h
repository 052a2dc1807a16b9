// `convcheck fuzz` as a job of the engine: the one CRD to fuzz chosen, the webhook reached
// (started with an AFL++ coverage map, waited for, through kubectl), fuzzed, and what was found
// reported as run reports it. Used by the engine API.
#pragma once

#include <istream>

#include "engine/api/verdict.h"
#include "engine/fuzz/fuzz_config.h"
#include "engine/run/webhook_access.h"

namespace convcheck {

// `config.run` holds run's options (the target, properties, reports …), the rest fuzzing's; its
// target is resolved here. `in` is read for a CRD given as "-".
Verdict fuzzJob(FuzzConfig config, AccessOptions access, std::istream& in);

}  // namespace convcheck
