#include "app/cli/release_outputs.h"

#include <iterator>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "app/cli/command.h"
#include "app/cli/release_options.h"
#include "app/cli/run_outputs.h"
#include "app/cli/stop_signal_watcher.h"
#include "engine/upgrade/release_bundles.h"

namespace convcheck {

void writeReleaseOutputs(ReleaseRun& run, const RunConfig& outputs, const std::string& colour,
                         std::ostream& out, std::ostream& err) {
  // run's bundles are not written: the two releases' are, and the reports name them.
  WrittenBundles bundles;
  if (!outputs.reportDir.empty()) bundles = writeReleaseBundles(run, outputs.reportDir);
  for (const auto& e : bundles.errors) err << "convcheck: " << e << "\n";
  writeReportOutputs(run.report, bundles, outputs, colour, out, err);
}

int executeReleaseMode(const std::vector<ReleaseLaunch>& releases, std::chrono::milliseconds wait,
                       const RunConfig& outputs, const std::string& colour, const ReleaseMode& mode,
                       const CommandContext& ctx) {
  if (auto e = createReportDir(outputs); !e.empty()) return usageError(ctx.err, e);
  std::string stdinText;  // a CRD given as -, read once for the run and a started webhook
  for (const auto& r : releases)
    if (r.crdInput == "-" && stdinText.empty())
      stdinText.assign(std::istreambuf_iterator<char>(ctx.in), {});
  ReleaseWebhooks webhooks;
  for (const auto& r : releases)
    if (auto e = webhooks.start(r.name, *r.command, r.crdInput, stdinText, *r.target, wait);
        !e.empty())
      return usageError(ctx.err, e);
  std::atomic<bool> stop{false};
  std::istringstream in(stdinText);
  ReleaseRun run;
  {
    StopSignalWatcher watcher(stop);
    run = mode(in, &stop);
  }
  webhooks.finish(run.report);
  run.report.version = ctx.version;
  writeReleaseOutputs(run, outputs, colour, ctx.out, ctx.err);
  return run.report.exitCode;
}

}  // namespace convcheck
