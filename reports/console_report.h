// The human summary printed at the end of a run: per kind a digest of its problems (one line each)
// and the properties' verdicts, then one block per problem, the reproduction command once.
// Reads a RunReport only; called by the CLI. Colour only on a TTY and when NO_COLOR is unset.
#pragma once

#include <iosfwd>

#include "reports/run_report.h"

namespace convcheck {

void printConsoleReport(const RunReport& report, std::ostream& out, bool colour);

}  // namespace convcheck
