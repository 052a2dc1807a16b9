// `convcheck run` as a job of the engine: the CRDs loaded, the webhook reached (started, waited
// for, through kubectl), the conformance run, the started webhook stopped. Used by the engine API.
#pragma once

#include <istream>

#include "engine/api/verdict.h"
#include "engine/run/run_config.h"
#include "engine/run/webhook_access.h"

namespace convcheck {

// `in` is read for a CRD given as "-". The verdict's report is the run's (reported) unless the
// webhook could not be started or reached at all for lack of a valid way to it (errors).
Verdict runJob(RunConfig config, AccessOptions access, std::istream& in);

}  // namespace convcheck
