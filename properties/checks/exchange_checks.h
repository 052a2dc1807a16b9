// The case a ConversionReview exchange belongs to, and the Exchange-scope properties of the
// registry judged on it. Called by the case executor for every exchange it makes.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "properties/checks/check_result.h"

namespace convcheck {

struct CaseContext {
  std::string from;  // source version of the case (first object's version for mixed batches)
  std::string to;    // target version
  std::chrono::milliseconds timeout{30000};
  // The openAPIV3Schema of a version of the kind, or nullptr (schema-valid's hint on whether the
  // webhook or the schemas are at fault); may be unset.
  std::function<const nlohmann::json*(const std::string& version)> schemaOf = {};
};

// One CheckResult for each Exchange-scope property of the registry, in registry order. Defined in
// property_registry.cpp.
std::vector<CheckResult> checkExchange(const ExchangeRef& exchange, const CaseContext& context);

}  // namespace convcheck
