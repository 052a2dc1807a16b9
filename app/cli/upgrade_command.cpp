// `convcheck upgrade`: the old release's CRD and webhook, the new release's, and the objects;
// argument parsing and output only, the upgrade itself is engine/upgrade's. Listed in
// command_table.cpp.
#include <sstream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "app/cli/release_options.h"
#include "app/cli/release_outputs.h"
#include "app/cli/run_outputs.h"
#include "app/cli/shared_options.h"
#include "engine/upgrade/upgrade_runner.h"

namespace convcheck {
namespace {

struct UpgradeFlags {
  UpgradeConfig config;
  ReleaseFlags oldFlags, newFlags;
  TargetFlags shared;  // --timeout, --wait
  RunConfig outputs;   // the report paths, --report-dir
  std::string configPath, dateTimes = "canonical", colour = "auto";
  std::vector<std::string> fromConfigFile;  // what the config file gave, for the reproduction
  bool seedGiven = false;
  std::vector<std::string> oldCommand, newCommand;
};

void declareInputs(CLI::App& app, UpgradeConfig& c) {
  declareCrdOption(app, c.oldCrd);
  app.add_option("--new-crd", c.newCrd,
                 "The new release's CRD: a YAML/JSON file or a directory, with the release's "
                 "StorageVersionMigration beside it when it moves the storage version")
      ->required();
  declareClusterOptions(app, c.cluster);
  app.add_option("--kind", c.kinds,
                 "Upgrade only these kinds (Kind or CRD name); default: every CRD both releases "
                 "have");
  app.add_option("--stored-versions", c.storedVersions,
                 "The cluster's status.storedVersions, comma-separated, for an old CRD file "
                 "without status; default: the old CRD's, else its storage version")
      ->delimiter(',');
  app.add_option("--objects", c.objectsPerVersion,
                 "Objects generated per version of the old CRD: written at each version it "
                 "serves, stored as they are in each other version of status.storedVersions")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
  app.add_option("--cluster-objects", c.clusterObjects,
                 "Read up to N stored objects from the cluster (GET only, at the old storage "
                 "version) and play them through the upgrade")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
  app.add_option("--objects-from", c.objectFiles,
                 "YAML/JSON files of objects (e.g. kubectl get KIND -A -o yaml) to play through "
                 "the upgrade, as written at their version");
  app.add_flag("--migrated", c.migrated,
               "The new release migrates stored objects to its storage version itself (a job, "
               "the operator on start-up), without a StorageVersionMigration among its manifests");
}

void declareUpgradeFlags(CLI::App& app, UpgradeFlags& f) {
  UpgradeConfig& c = f.config;
  declareInputs(app, c);
  declareReleaseOptions(app, f.oldFlags, f.newFlags);
  declareServiceProxyOption(app, c.oldTarget.serviceProxy);
  declarePortForwardOption(app, c.oldTarget.portForward);
  declareTimeoutOption(app, f.shared, TargetDefaults::Crd);
  declareWaitOption(app, f.shared);
  declareDateTimesOption(app, f.dateTimes);
  declareSeedOption(app, c.seed,
                    "Random seed; the same seed, CRDs and webhooks give the same objects, "
                    "requests and verdict (default: random, printed)")
      ->each([&f](const std::string&) { f.seedGiven = true; });
  app.add_option("--jobs,-j", c.jobs,
                 "Objects played at once; each release's webhook gets at most this many requests "
                 "in flight")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--config", f.configPath,
                 "Config file: upgrade options (flags override them) and acknowledged differences "
                 "(see docs/upgrade.md); default: .convcheck.yaml in the current directory when "
                 "there is one");
  declareReportOptions(app, f.outputs.reportPaths, f.outputs.reportDir);
  declareColourOption(app, f.colour);
}

// The parts of the configuration that need checking beyond CLI11; returns an error or "".
std::string finishUpgradeConfig(UpgradeFlags& f, const std::vector<std::string>& args) {
  UpgradeConfig& c = f.config;
  if (c.oldCrd == "-" && c.newCrd == "-") return "--crd and --new-crd cannot both be - (stdin)";
  if (auto e = readReleaseFlags("old", f.oldFlags, f.shared, c.oldTarget, f.oldCommand); !e.empty())
    return e;
  if (auto e = readReleaseFlags("new", f.newFlags, f.shared, c.newTarget, f.newCommand); !e.empty())
    return e;
  if (auto e = readWait(f.shared, c.portForwardWait); !e.empty()) return e;
  c.canonicalDateTimes = f.dateTimes == "canonical";
  if (!f.seedGiven) c.seed = randomSeed();
  c.commandLine = reproductionCommand(args, f.fromConfigFile, c.seed);
  c.acks = f.outputs.acks;
  return resolveReportPaths(f.outputs);
}

int executeUpgrade(UpgradeFlags& f, const CommandContext& ctx) {
  UpgradeConfig& c = f.config;
  return executeReleaseMode(
      {{"old", &f.oldCommand, c.oldCrd, &c.oldTarget},
       {"new", &f.newCommand, c.newCrd, &c.newTarget}},
      c.portForwardWait, f.outputs, f.colour,
      [&c](std::istream& in, const std::atomic<bool>* stop) {
        c.stopRequested = stop;
        std::ostringstream quiet;
        return runUpgrade(c, in, quiet);
      },
      ctx);
}

Execute declareUpgradeOptions(CLI::App& sub) {
  auto flags = std::make_shared<UpgradeFlags>();
  declareUpgradeFlags(sub, *flags);
  return [flags, &sub](const CommandContext& c) {
    std::string error = applyConfigFile(sub, "upgrade", flags->configPath, flags->outputs.acks,
                                        flags->fromConfigFile);
    if (error.empty()) error = finishUpgradeConfig(*flags, c.args);
    if (!error.empty()) return usageError(c.err, error);
    return executeUpgrade(*flags, c);
  };
}

}  // namespace

Command upgradeCommand() {
  return {"upgrade",
          "Play stored objects through an upgrade from an old CRD and webhook (--crd) to new ones "
          "(--new-crd): store, read after upgrade, migrate, roll back, and the CRD change",
          declareUpgradeOptions};
}

}  // namespace convcheck
