// `convcheck fuzz --crd … --url … [--corpus DIR] [--max-total-time 10m] [--runs N] [--jobs N]
// [--merge]`: a coverage-guided search (libFuzzer, fed by the webhook's behaviour) for cases that
// break a property, with run's target, TLS, config and report options; the problems found are
// reported as run reports them (shrunk, bundled, stored as regressions). Exit 1 when it found a
// problem, 0 when the budget ran out without one, 2 usage/input, 3 unreachable. Listed in
// command_table.cpp.
#include <istream>
#include <memory>
#include <ostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "app/cli/console_events.h"
#include "app/cli/run_outputs.h"
#include "app/cli/shared_options.h"
#include "engine/engine.h"
#include "engine/run/kcp_run.h"
#include "kube/go/duration.h"

namespace convcheck {

namespace {

struct FuzzFlags {
  RunConfig config;   // run's options
  FuzzMode settings;  // fuzzing's
  std::string kind, reviewVersion, dateTimes = "canonical", properties, colour = "auto";
  std::string maxTotalTime;     // "": FuzzSettings' default
  std::string maxResponseSize;  // "": TransportOptions' default
  TargetFlags target;
  bool seedGiven = false;
  std::vector<std::string> webhookCommand;  // after --: the webhook to start for the fuzz run
  bool noCoverage = false;                  // give a started webhook no AFL++ coverage map
  std::vector<std::string> fromConfigFile;  // what the config file gave, for the reproduction
};

void declareFuzzProcessFlags(CLI::App& fuzz, FuzzFlags& f);

void declareFuzzFlags(CLI::App& fuzz, FuzzFlags& f) {
  RunConfig& c = f.config;
  c.maxBatchSize = 8;
  declareCrdOption(fuzz, c.crdInput);
  declareClusterOptions(fuzz, c.cluster);
  declareKindOption(fuzz, f.kind);
  declareTargetOptions(fuzz, f.target, TargetDefaults::Crd);
  declareHttp2Option(fuzz, c.transport.http2);
  declareReviewVersionOption(fuzz, f.reviewVersion);
  declareDateTimesOption(fuzz, f.dateTimes);
  fuzz.add_option("--config", c.configPath,
                  "Config file: fuzz options (its fuzz: map; flags override them) and acknowledged "
                  "differences (YAML, see docs/reference.md); default: .convcheck.yaml in the "
                  "current directory when there is one");
  declareRawObjectsOption(fuzz, c.rawObjects);
  declareSeedOption(fuzz, c.seed,
                    "libFuzzer's random seed (process N of --jobs takes seed+N); default: random, "
                    "printed")
      ->each([&f](const std::string&) { f.seedGiven = true; });
  fuzz.add_option("--corpus", c.corpusDir,
                  "Corpus directory kept between runs: fuzz/ holds the inputs that showed new "
                  "behaviour, regressions/ receives the shrunk problems (replayed by `run`)");
  fuzz.add_option("--max-total-time", f.maxTotalTime,
                  "Time budget for the whole campaign, fuzzing, shrinking and reports, e.g. 10m")
      ->default_str(fmt::format("{}s", f.settings.maxTotalTime));
  fuzz.add_option("--runs", f.settings.runs,
                  "Cases each fuzzing process runs at most (default: until the time budget)");
  declareFuzzProcessFlags(fuzz, f);
  fuzz.add_option("--batch-size", c.maxBatchSize, "Largest batch of objects in one fuzz case")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  declareTimeoutOption(fuzz, f.target, TargetDefaults::Crd);
  declareWaitOption(fuzz, f.target);
  declarePropertiesOption(fuzz, f.properties);
  declareReportOptions(fuzz, c.reportPaths, c.reportDir);
  declareShrinkBudgetOption(fuzz, c.shrinkBudget);
  declareClusterObjectsOption(fuzz, c.clusterObjects);
  declareServiceProxyOption(fuzz, c.serviceProxy);
  declarePortForwardOption(fuzz, c.portForward);
  declareMaxResponseSizeOption(fuzz, f.maxResponseSize);
  declareColourOption(fuzz, f.colour);
  declareWebhookCommandOption(fuzz, f.webhookCommand);
  fuzz.add_flag("--no-coverage", f.noCoverage,
                "With -- COMMAND: give the webhook no AFL++ coverage map (its behaviour is then "
                "the only feedback; see docs/reference.md)");
}

// The options of how fuzzing runs: processes, cases in flight, when to stop, merging corpora.
void declareFuzzProcessFlags(CLI::App& fuzz, FuzzFlags& f) {
  fuzz.add_option("--jobs,-j", f.settings.jobs,
                  "Fuzzing processes side by side, sharing the corpus directory (with -- COMMAND, "
                  "each fuzzes a webhook and AFL++ map of its own)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  fuzz.add_option("--in-flight", f.settings.inFlight,
                  "Cases each fuzzing process keeps in flight: one libFuzzer input is a flight of "
                  "this many cases, run side by side, whose behaviour is the input's (1: one case "
                  "at a time)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  fuzz.add_flag("--stop-on-problem", f.settings.stopOnProblem,
                "End fuzzing at the first problem any process finds (it is still shrunk and "
                "reported); default: fuzz for the whole budget");
  fuzz.add_flag("--merge", f.settings.merge,
                "Minimise the corpus's fuzz/ inputs instead of fuzzing: smallest first, each kept "
                "only when it shows behaviour no input kept before it showed");
  fuzz.add_option("--merge-from", f.settings.mergeFrom,
                  "With --merge: join this corpus directory (another shard's --corpus, from a "
                  "cache or a volume) into --corpus DIR: its fuzz/ inputs that add behaviour and "
                  "its regressions/; repeatable, the directory is left as it was")
      ->type_name("DIR")
      ->allow_extra_args(false);
}

// Fills what CLI11 could not: target, budget, properties, seed, report paths.
std::string finishFuzzConfig(FuzzFlags& f, const std::vector<std::string>& args) {
  RunConfig& c = f.config;
  if (auto error = readWebhookTarget(f.target, f.webhookCommand, args, c, c.portForwardWait);
      !error.empty())
    return error;
  if (auto error = readMaxResponseSize(f.maxResponseSize, c.transport); !error.empty())
    return error;
  if (auto error = readReviewVersion(f.reviewVersion, c.reviewVersion); !error.empty())
    return error;
  c.canonicalDateTimes = f.dateTimes == "canonical";
  if (!f.maxTotalTime.empty()) {
    auto budget = parseDuration(f.maxTotalTime);
    if (!budget || budget->count() < 0)
      return fmt::format("--max-total-time {}: expected a duration such as 10m or 90s",
                         f.maxTotalTime);
    f.settings.maxTotalTime = static_cast<int>((budget->count() + 999) / 1000);
  }
  f.settings.webhookCoverage = !f.noCoverage;
  if (!f.settings.mergeFrom.empty() && !f.settings.merge)
    return "--merge-from joins corpora in a merge: add --merge";
  if (auto error = readPropertyIds(f.properties, c.properties); !error.empty()) return error;
  if (auto error = prepareKcpRun(c); !error.empty()) return error;
  if (!f.kind.empty()) c.kinds = {f.kind};
  if (!f.seedGiven) c.seed = randomSeed();
  c.commandLine = reproductionCommand(args, f.fromConfigFile, c.seed);
  return resolveReportPaths(c);
}

// Runs the engine's fuzz mode on the parsed options and writes what it found.
int executeFuzz(FuzzFlags& f, const std::string& version, std::istream& in, std::ostream& out,
                std::ostream& err) {
  RunConfig& c = f.config;
  if (auto error = createReportDir(c); !error.empty()) return usageError(err, error);
  Verdict verdict =
      execute(EngineOptions{f.settings, c, AccessOptions{f.webhookCommand, {}, c.portForwardWait},
                            &in, version},
              consoleEvents(err, {false, nullptr, true}));
  return writeVerdict(verdict, c, f.colour, out, err);
}

Execute declareFuzzOptions(CLI::App& sub) {
  auto f = std::make_shared<FuzzFlags>();
  declareFuzzFlags(sub, *f);
  return [f, &sub](const CommandContext& c) {
    RunConfig& run = f->config;
    std::string error = applyConfigFile(sub, "fuzz", run.configPath, run.acks, f->fromConfigFile);
    if (error.empty()) error = finishFuzzConfig(*f, c.args);
    if (!error.empty()) return usageError(c.err, error);
    return executeFuzz(*f, c.version, c.in, c.out, c.err);
  };
}

}  // namespace

Command fuzzCommand() {
  return {"fuzz",
          "Search for cases that break a property, guided by the webhook's behaviour (libFuzzer); "
          "exit 1 when a problem was found, 0 when the budget ran out",
          declareFuzzOptions};
}

}  // namespace convcheck
