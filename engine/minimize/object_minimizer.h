// `convcheck minimize OBJECT` as a job of the engine: a user's failing object (kubectl get -o
// json|yaml output, server-set fields and all) completed as kube-apiserver stores it, converted,
// and its first failure (or the property asked for) shrunk to the smallest schema-valid objects
// that still fail the same way. Used by the engine API.
#pragma once

#include <istream>
#include <string>

#include "engine/api/verdict.h"
#include "engine/run/run_config.h"
#include "engine/run/webhook_access.h"

namespace convcheck {

// What minimize is asked (the engine's minimize mode).
struct MinimizeMode {
  std::string object;    // a JSON or YAML file (a List or several documents: a batch), or "-"
  std::string kind;      // the CRD when the input holds several (Kind or CRD name)
  std::string to;        // the version to convert to
  std::string property;  // the property that fails ("": the first that does)
};

// `config` gives the CRD, the target (url, transport, --review-version, --service-proxy,
// --port-forward), the seed and the shrink budget; `access` --wait. `in` is read for a CRD or
// object given as "-". Exit code: 1 it fails (minimised), 0 it does not, 2 bad input, 3 the
// webhook could not be reached.
Verdict minimizeJob(const MinimizeMode& mode, RunConfig config, AccessOptions access,
                    std::istream& in);

}  // namespace convcheck
