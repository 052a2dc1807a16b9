// Properties judged on what a conversion of valid input produced (converts-valid-input,
// schema-valid, no-pruned-fields). Called by the case executor for every forward exchange.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "properties/checks/check_result.h"
#include "properties/checks/exchange_checks.h"
#include "properties/checks/property.h"

namespace convcheck {

// The Output-scope properties of the registry, in registry order. `exchange` converted
// schema-valid objects; `validate` checks against the target schema (empty: schema-valid is not
// evaluable). Defined in property_registry.cpp.
std::vector<CheckResult> checkOutput(const ExchangeRef& exchange, const CaseContext& context,
                                     const TargetValidator& validate);

}  // namespace convcheck
