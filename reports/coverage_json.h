// A kind's coverage as results.json's `coverage`: per version the counts, every path with its
// presence, absence and boundaries, and what was not exercised; per pair what was sent. Used by
// the JSON report.
#pragma once

#include <nlohmann/json.hpp>

#include "reports/run_coverage.h"

namespace convcheck {

nlohmann::json coverageToJson(const KindCoverage& coverage);

}  // namespace convcheck
