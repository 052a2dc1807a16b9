// The endpoint check: the evidence the registry's Endpoint-scope properties (tls) are judged on,
// gathered once per kind from the resolved target (whether the URL is https, and what a handshake
// of its own saw of the serving certificate), and their results. Used by the runner after the
// run's first case.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/run/target_resolution.h"
#include "properties/checks/check_result.h"
#include "properties/checks/tls.h"

namespace convcheck {

TlsEvidence tlsEvidence(const ResolvedTarget& target);

// One result for each Endpoint-scope property of the registry that `wants` selects, in registry
// order, judged on the evidence of `target`; no handshake is made when none is wanted.
std::vector<CheckResult> endpointResults(const ResolvedTarget& target,
                                         const std::function<bool(const std::string&)>& wants);

}  // namespace convcheck
