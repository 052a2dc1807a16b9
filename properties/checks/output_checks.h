// Properties judged on what a conversion of valid input produced: converts-valid-input,
// schema-valid and no-pruned-fields. Called by the case executor for every forward exchange.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "properties/checks/check_result.h"
#include "properties/checks/exchange_checks.h"

namespace convcheck {

// Violations of the target version's schema for one object ("spec.port: does not match …").
using TargetValidator = std::function<std::vector<std::string>(const nlohmann::json& object)>;

// `exchange` converted schema-valid objects; `validate` checks against the target schema.
std::vector<CheckResult> checkOutput(const Exchange& exchange, const CaseContext& context,
                                     const TargetValidator& validate);

}  // namespace convcheck
