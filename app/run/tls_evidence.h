// The evidence the tls property is judged on, gathered once per kind from the resolved target:
// whether the URL is https, and what a handshake of its own saw of the serving certificate. Used
// by the runner after the run's first case.
#pragma once

#include "app/run/target_resolution.h"
#include "properties/checks/tls.h"

namespace convcheck {

TlsEvidence tlsEvidence(const ResolvedTarget& target);

}  // namespace convcheck
