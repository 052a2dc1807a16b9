// What `upgrade` and `diff` write once their run is done: the bundles of two releases (with
// --report-dir) and then everything run writes (report files, the console report). Used by
// upgrade_command and diff_command.
#pragma once

#include <iosfwd>
#include <string>

#include "engine/run/run_config.h"
#include "engine/upgrade/release_run.h"

namespace convcheck {

// Creates --report-dir (when given); returns an error or "".
std::string makeReportDir(const std::string& reportDir);

// `outputs` holds the report paths (resolveReportPaths) and --report-dir; `colour` is --color.
void writeReleaseOutputs(ReleaseRun& run, const RunConfig& outputs, const std::string& colour,
                         std::ostream& out, std::ostream& err);

}  // namespace convcheck
