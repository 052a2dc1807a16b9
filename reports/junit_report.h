// JUnit XML for CI test reporters: one testsuite per kind, one testcase per (from, to, property).
// Reads a RunReport only; called by the CLI after a run (also after a failed or interrupted one).
#pragma once

#include <string>

#include "reports/run_report.h"

namespace convcheck {

std::string renderJunit(const RunReport& report);
// Writes atomically (temporary file, then rename). Returns an error message or "".
std::string writeJunit(const RunReport& report, const std::string& path);

}  // namespace convcheck
