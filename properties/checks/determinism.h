// The determinism property: the same request (with a fresh uid) gives the same converted objects.
// Called by the runner after sending one batch twice.
#pragma once

#include "properties/checks/check_result.h"
#include "properties/checks/exchange_checks.h"

namespace convcheck {

// Both exchanges must have been accepted by the API-server model; compares what clients see.
CheckResult checkDeterminism(const ExchangeRef& first, const ExchangeRef& second,
                             const CaseContext& context);

}  // namespace convcheck
