// `convcheck upgrade` as a mode of the engine: loads both releases' CRDs, pairs their kinds, makes
// the objects, plays each through the upgrade (UpgradePlay) on --jobs threads, and tallies every
// step's results into run's RunReport (the problems folded as run folds them, each site naming
// the step). Writes nothing to a cluster: reads of the CRD and of stored objects only. Called by
// app/cli/upgrade_command.
#pragma once

#include <iosfwd>

#include "engine/upgrade/release_run.h"
#include "engine/upgrade/upgrade_config.h"

namespace convcheck {

// The exit code (SPEC §7) is set in the returned run's report: 0 every step held, 1 a problem, 2
// bad input, 3 a release's webhook could not be reached, 130 interrupted. `log` gets progress
// lines.
ReleaseRun runUpgrade(const UpgradeConfig& config, std::istream& stdinStream, std::ostream& log);

}  // namespace convcheck
