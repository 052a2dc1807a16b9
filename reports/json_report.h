// Machine-readable results (--json, results.json; format 3, see docs/reference.md "On-disk
// formats"): every problem with its sites and example (whole for the most severe, up to a size
// budget; its bundle has the rest), every (property, pair) with its counts, the ids of the problems
// it shows and its causes counted. Bounded by the problems, not by the cases. Reads a RunReport
// and its bundles only; called by the CLI after every run that got far enough to have one.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "reports/run_report.h"
#include "reports/written_bundles.h"

namespace convcheck {

// 1 was the unversioned layout with per-(property, pair) findings and cause counts; 2 added
// problems and kept every (property, pair)'s findings beside them.
inline constexpr int kResultsFormat = 3;

nlohmann::json reportToJson(const RunReport& report, const WrittenBundles& bundles = {});
// `wholeExample`: with the example's objects, expected/got and exchanges.
nlohmann::json problemToJson(const Problem& problem, const BundleRef* bundle, bool wholeExample);
// An exchange with its request and response bodies, each cut at 64 KiB (`bodyBytes`: its size).
nlohmann::json exchangeToJson(const Exchange& exchange);
nlohmann::json shrinkInfoToJson(const ShrinkInfo& shrink);
std::string writeJsonReport(const RunReport& report, const WrittenBundles& bundles,
                            const std::string& path);  // error or ""

}  // namespace convcheck
