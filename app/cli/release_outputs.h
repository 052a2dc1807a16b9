// What `upgrade` and `diff` do around their engine's mode: the report directory, stdin read once,
// each release's webhook started and stopped, the mode run under the SIGINT/SIGTERM watcher, and
// what they write once it is done (the bundles of two releases with --report-dir, then everything
// run writes). Used by upgrade_command and diff_command.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "app/cli/command.h"
#include "engine/run/run_config.h"
#include "engine/upgrade/release.h"
#include "engine/upgrade/release_run.h"

namespace convcheck {

// `outputs` holds the report paths (resolveReportPaths) and --report-dir; `colour` is --color.
void writeReleaseOutputs(ReleaseRun& run, const RunConfig& outputs, const std::string& colour,
                         std::ostream& out, std::ostream& err);

// One release's webhook as the command line gives it: a command to start (may be empty) for the
// release whose CRD is `crdInput`, and the target it points.
struct ReleaseLaunch {
  std::string name;  // "old" or "new"
  const std::vector<std::string>* command;
  std::string crdInput;
  ReleaseTarget* target;
};

// The engine's mode, given stdin (a CRD of "-") and the stop flag SIGINT/SIGTERM set.
using ReleaseMode =
    std::function<ReleaseRun(std::istream& in, const std::atomic<bool>* stopRequested)>;

// Makes --report-dir, reads stdin once when a release's CRD is "-", starts the releases' webhooks
// (waiting up to `wait` for them), runs `mode` under the signal watcher, stops the webhooks and
// writes the outputs; returns the exit code (2 when a webhook or the report directory fails).
int executeReleaseMode(const std::vector<ReleaseLaunch>& releases, std::chrono::milliseconds wait,
                       const RunConfig& outputs, const std::string& colour, const ReleaseMode& mode,
                       const CommandContext& ctx);

}  // namespace convcheck
