// An object as the API server holds and shows it at its own version: pruned with its schema,
// nulls pruned, numbers normalised, metadata round-tripped. The baseline for round-trip checks.
#pragma once

#include <nlohmann/json.hpp>

namespace convcheck {

nlohmann::json storedForm(const nlohmann::json& object, const nlohmann::json& schema);

}  // namespace convcheck
