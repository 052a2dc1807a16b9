// Machine-readable results (--json): the whole RunReport as JSON, findings with their exchanges.
// Reads a RunReport only; called by the CLI after every run that got far enough to have one.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "reports/run_report.h"

namespace convcheck {

nlohmann::json reportToJson(const RunReport& report);
nlohmann::json exchangeToJson(const Exchange& exchange);
nlohmann::json shrinkInfoToJson(const ShrinkInfo& shrink);
std::string writeJsonReport(const RunReport& report, const std::string& path);  // error or ""

}  // namespace convcheck
