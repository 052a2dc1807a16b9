// `convcheck diff`: one CRD and two webhooks (a refactor, a library upgrade), the same reviews to
// both; argument parsing and output only, the comparison is engine/upgrade's. Listed in
// command_table.cpp.
#include <sstream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "app/cli/release_options.h"
#include "app/cli/release_outputs.h"
#include "app/cli/run_outputs.h"
#include "app/cli/shared_options.h"
#include "engine/upgrade/release_diff.h"

namespace convcheck {
namespace {

struct DiffFlags {
  DiffConfig config;
  ReleaseFlags oldFlags, newFlags;
  TargetFlags shared;  // --timeout, --wait
  RunConfig outputs;   // the report paths, --report-dir
  std::string configPath, dateTimes = "canonical", colour = "auto";
  std::vector<std::string> fromConfigFile;  // what the config file gave, for the reproduction
  bool seedGiven = false;
  std::vector<std::string> oldCommand, newCommand;
};

void declareDiffFlags(CLI::App& app, DiffFlags& f) {
  DiffConfig& c = f.config;
  declareCrdOption(app, c.crdInput);
  declareClusterOptions(app, c.cluster);
  app.add_option("--kind", c.kinds,
                 "Compare only these kinds (Kind or CRD name); default: every CRD with two or "
                 "more versions");
  declareReleaseOptions(app, f.oldFlags, f.newFlags);
  declareTimeoutOption(app, f.shared, TargetDefaults::Crd);
  declareWaitOption(app, f.shared);
  declareTestsOption(app, c.testsPerPair);
  declareRawObjectsOption(app, c.rawObjects);
  declareShrinkBudgetOption(app, c.shrinkBudget);
  declareDateTimesOption(app, f.dateTimes);
  declareSeedOption(app, c.seed,
                    "Random seed; the same seed, CRD and webhooks give the same reviews and "
                    "verdict (default: random, printed)")
      ->each([&f](const std::string&) { f.seedGiven = true; });
  app.add_option("--jobs,-j", c.jobs,
                 "Reviews compared at once; each webhook gets at most this many requests in flight")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--config", f.configPath,
                 "Config file: diff options (flags override them) and acknowledged differences "
                 "(see docs/upgrade.md); default: .convcheck.yaml in the current directory when "
                 "there is one");
  declareReportOptions(app, f.outputs.reportPaths, f.outputs.reportDir);
  declareColourOption(app, f.colour);
}

std::string finishDiffConfig(DiffFlags& f, const std::vector<std::string>& args) {
  DiffConfig& c = f.config;
  if (auto e = readReleaseFlags("old", f.oldFlags, f.shared, c.oldTarget, f.oldCommand); !e.empty())
    return e;
  if (auto e = readReleaseFlags("new", f.newFlags, f.shared, c.newTarget, f.newCommand); !e.empty())
    return e;
  c.canonicalDateTimes = f.dateTimes == "canonical";
  if (!f.seedGiven) c.seed = randomSeed();
  c.commandLine = reproductionCommand(args, f.fromConfigFile, c.seed);
  c.acks = f.outputs.acks;
  return resolveReportPaths(f.outputs);
}

int executeDiff(DiffFlags& f, const CommandContext& ctx) {
  DiffConfig& c = f.config;
  std::chrono::milliseconds wait{0};
  if (auto e = readWait(f.shared, wait); !e.empty()) return usageError(ctx.err, e);
  return executeReleaseMode(
      {{"old", &f.oldCommand, c.crdInput, &c.oldTarget},
       {"new", &f.newCommand, c.crdInput, &c.newTarget}},
      wait, f.outputs, f.colour,
      [&c](std::istream& in, const std::atomic<bool>* stop) {
        c.stopRequested = stop;
        std::ostringstream quiet;
        return runDiff(c, in, quiet);
      },
      ctx);
}

Execute declareDiffOptions(CLI::App& sub) {
  auto flags = std::make_shared<DiffFlags>();
  declareDiffFlags(sub, *flags);
  return [flags, &sub](const CommandContext& c) {
    std::string error =
        applyConfigFile(sub, "diff", flags->configPath, flags->outputs.acks, flags->fromConfigFile);
    if (error.empty()) error = finishDiffConfig(*flags, c.args);
    if (!error.empty()) return usageError(c.err, error);
    return executeDiff(*flags, c);
  };
}

}  // namespace

Command diffCommand() {
  return {"diff",
          "Send the same reviews to two webhooks of one CRD (--old-url/--old-webhook-command, "
          "--new-url/--new-webhook-command) and report every difference in behaviour",
          declareDiffOptions};
}

}  // namespace convcheck
