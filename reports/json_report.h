// Machine-readable results (--json, results.json; format 2, see the README's "On-disk formats"):
// the whole RunReport as JSON, every problem with its sites and example (its exchanges included),
// every (property, pair) with its counts, the ids of the problems it shows and its causes'
// examples. Reads a RunReport only; called by the CLI after every run that got far enough to have
// one.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "reports/run_report.h"

namespace convcheck {

// 1 was the unversioned layout with per-(property, pair) findings and cause counts.
inline constexpr int kResultsFormat = 2;

nlohmann::json reportToJson(const RunReport& report);
nlohmann::json problemToJson(const Problem& problem);
nlohmann::json exchangeToJson(const Exchange& exchange);
nlohmann::json shrinkInfoToJson(const ShrinkInfo& shrink);
std::string writeJsonReport(const RunReport& report, const std::string& path);  // error or ""

}  // namespace convcheck
