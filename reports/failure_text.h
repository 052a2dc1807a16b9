// The human text of one finding: summary, API-server message, details, diff and reproduction.
// Shared by the console report and the JUnit failure bodies so both say the same thing.
#pragma once

#include <string>

#include "reports/run_report.h"

namespace convcheck {

std::string failureText(const Finding& finding, const RunReport& report);
std::string caseName(const PropertyTally& tally);  // "v1beta1 -> v1: round-trip"

}  // namespace convcheck
