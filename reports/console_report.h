// The human summary printed at the end of a run: per-kind property table, then each failure.
// Reads a RunReport only; called by the CLI. Colour only on a TTY and when NO_COLOR is unset.
#pragma once

#include <iosfwd>

#include "reports/run_report.h"

namespace convcheck {

void printConsoleReport(const RunReport& report, std::ostream& out, bool colour);

}  // namespace convcheck
