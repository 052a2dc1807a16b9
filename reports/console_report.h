// The human summary printed at the end of a run: per kind a digest of its problems (one line each)
// and the properties' verdicts, then a block for each of the most severe problems and one line
// with its bundle for each other, the reproduction command once. Reads a RunReport and the
// bundles written for it only; called by the CLI. Colour only on a TTY and when NO_COLOR is unset.
#pragma once

#include <cstddef>
#include <iosfwd>

#include "reports/run_report.h"
#include "reports/written_bundles.h"

namespace convcheck {

struct ConsoleOptions {
  bool colour = false;
  bool fatalError = true;       // print report.fatalError (false: the caller said it already)
  std::size_t fullBlocks = 20;  // problems shown in full over the run, most severe first
};

void printConsoleReport(const RunReport& report, const WrittenBundles& bundles, std::ostream& out,
                        const ConsoleOptions& options = {});

}  // namespace convcheck
