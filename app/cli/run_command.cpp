// `convcheck run`: every run option, the checks beyond CLI11 that fill the RunConfig, the engine's
// run mode, and its reports, bundles and corpus. Listed in command_table.cpp.
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/colour.h"
#include "app/cli/command.h"
#include "app/cli/console_events.h"
#include "app/cli/run_outputs.h"
#include "app/cli/run_progress.h"
#include "app/cli/shard_option.h"
#include "app/cli/shared_options.h"
#include "app/cli/stop_signal_watcher.h"
#include "engine/engine.h"
#include "engine/run/kcp_run.h"
#include "harness/plan/test_plan.h"
#include "kube/go/duration.h"

namespace convcheck {
namespace {

struct RunFlags {
  RunConfig config;
  TargetFlags target;
  std::string duration;
  std::string reviewVersion;
  std::string properties;
  std::string maxResponseSize;  // "": TransportOptions' default
  std::string dateTimes = "canonical";
  std::string colour = "auto";
  std::string shard;  // --shard I/N
  bool seedGiven = false;
  std::chrono::milliseconds wait{0};        // --wait
  std::vector<std::string> webhookCommand;  // after --: the webhook to start for the run
  std::vector<std::string> fromConfigFile;  // what the config file gave, for the reproduction
};

// The run options of what is tested and where, in the order --help shows them.
void declareRunFlags(CLI::App& run, RunFlags& f) {
  RunConfig& c = f.config;
  declareCrdOption(run, c.crdInput);
  declareClusterOptions(run, c.cluster);
  run.add_option("--kind", c.kinds,
                 "Test only these kinds (Kind or CRD name); default: every CRD with strategy "
                 "Webhook");
  declareTargetOptions(run, f.target, TargetDefaults::Crd);
  declareTargetKindOptions(run, f.target);
  declareHttp2Option(run, c.transport.http2);
  declareReviewVersionOption(run, f.reviewVersion);
  declareDateTimesOption(run, f.dateTimes);
  run.add_option("--config", c.configPath,
                 "Config file: run options (flags override them) and acknowledged differences "
                 "(YAML, see README); default: .convcheck.yaml in the current directory when "
                 "there is one");
  declareRawObjectsOption(run, c.rawObjects);
  declareSeedOption(run, c.seed,
                    "Random seed; the same seed, CRD and webhook give the same "
                    "requests and verdict (default: random, printed)")
      ->each([&f](const std::string&) { f.seedGiven = true; });
}

// The run options of how many cases, how fast and what is reported, in --help's order.
void declareRunBudgetFlags(CLI::App& run, RunFlags& f) {
  RunConfig& c = f.config;
  declareTestsOption(run, c.testsPerPair)->each([&c](const std::string&) { c.testsGiven = true; });
  run.add_option("--duration", f.duration,
                 "Time budget for the whole run, shrinking and reports included, e.g. 10m, "
                 "spread over kinds and version pairs; without --tests, cases continue until "
                 "testing's share is spent");
  run.add_option("--jobs,-j", c.jobs,
                 "Requests in flight to the webhook at once, as kube-apiserver calls webhooks "
                 "concurrently (one case more runs, judged meanwhile); verdicts stay the same for "
                 "a seed (results are judged in case order)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  run.add_option("--batch-size", c.maxBatchSize,
                 fmt::format("Largest batch of objects in one review: a LIST chunk (pagers ask "
                             "for {}) per version pair, other batches up to {}",
                             kListChunkObjects, kMixedBatchObjects))
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  declareTimeoutOption(run, f.target, TargetDefaults::Crd);
  declareWaitOption(run, f.target);
  declarePropertiesOption(run, f.properties);
  declareReportOptions(run, c.reportPaths, c.reportDir);
  declareShrinkBudgetOption(run, c.shrinkBudget);
  run.add_option("--corpus", c.corpusDir,
                 "Corpus directory: samples/ are test inputs, regressions/ are replayed first and "
                 "receive this run's shrunk failures");
  declareClusterObjectsOption(run, c.clusterObjects);
  declareServiceProxyOption(run, c.serviceProxy);
  declarePortForwardOption(run, c.portForward);
  declareMaxResponseSizeOption(run, f.maxResponseSize);
  run.add_option("--user-agent", c.transport.userAgent, "User-Agent header")->capture_default_str();
  run.add_option("--max-failures", c.maxFailingCases,
                 "Stop the run after this many failing test cases and report what was found "
                 "(0: no limit)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000000));
  run.add_option("--shard", f.shard,
                 "Run shard I of N (I/N, e.g. 2/3) of the run: every N-th (kind, version pair) "
                 "from the I-th on; N shards with the same seed send the unsharded run's cases, "
                 "and `convcheck merge` joins their report directories (default: "
                 "JOB_COMPLETION_INDEX/JOB_COMPLETIONS of a Kubernetes Indexed Job when both are "
                 "set)");
  declareColourOption(run, f.colour);
  run.add_flag("--verbose,-v", c.verbose, "Print progress per version pair");
  declareWebhookCommandOption(run, f.webhookCommand);
}

// Fills the parts of RunConfig that need checking beyond CLI11; returns an error or "".
std::string finishRunConfig(RunFlags& f, const std::vector<std::string>& args) {
  RunConfig& c = f.config;
  if (auto error = readWebhookTarget(f.target, f.webhookCommand, args, c, f.wait); !error.empty())
    return error;
  c.portForwardWait = f.wait;
  c.canonicalDateTimes = f.dateTimes == "canonical";
  if (!f.duration.empty()) {
    auto duration = parseDuration(f.duration);
    if (!duration || duration->count() <= 0)
      return fmt::format("--duration {}: expected a duration such as 10m or 90s", f.duration);
    c.duration = *duration;
  }
  if (auto error = readReviewVersion(f.reviewVersion, c.reviewVersion); !error.empty())
    return error;
  if (auto error = readPropertyIds(f.properties, c.properties); !error.empty()) return error;
  ShardChoice shard;
  if (auto error = readShard(f.shard, std::getenv("JOB_COMPLETION_INDEX"),
                             std::getenv("JOB_COMPLETIONS"), shard);
      !error.empty())
    return error;
  c.shardIndex = shard.index;
  c.shardCount = shard.count;
  if (auto error = prepareKcpRun(c); !error.empty()) return error;
  if (auto error = readMaxResponseSize(f.maxResponseSize, c.transport); !error.empty())
    return error;
  if (!f.seedGiven) c.seed = randomSeed();
  std::vector<std::string> fromElsewhere = f.fromConfigFile;
  if (shard.fromEnvironment)
    fromElsewhere.insert(fromElsewhere.end(),
                         {"--shard", fmt::format("{}/{}", shard.index + 1, shard.count)});
  c.commandLine = reproductionCommand(args, fromElsewhere, c.seed);
  return resolveReportPaths(c);
}

// Runs the engine's run mode on the parsed options and writes what it found.
int executeRun(RunFlags& f, const std::string& version, std::istream& in, std::ostream& out,
               std::ostream& err) {
  RunConfig& c = f.config;
  if (auto error = createReportDir(c); !error.empty()) return usageError(err, error);
  std::atomic<bool> stop{false};
  c.stopRequested = &stop;
  Verdict verdict;
  {
    StopSignalWatcher watcher(stop);
    const bool terminal = isatty(STDERR_FILENO) == 1 && !dumbTerminal(std::getenv("TERM"));
    RunProgress progress(err,
                         terminal ? RunProgress::Mode::Terminal : RunProgress::Mode::StatusLines,
                         terminal ? std::chrono::seconds(1) : std::chrono::seconds(10), c.duration);
    verdict = execute(
        EngineOptions{RunMode{}, c, AccessOptions{f.webhookCommand, {}, f.wait}, &in, version},
        consoleEvents(err, {c.verbose, &progress, false}));
  }
  return writeVerdict(verdict, c, f.colour, out, err);
}

// Declares the options on `sub`; the returned action reads what they receive.
Execute declareRunOptions(CLI::App& sub) {
  auto flags = std::make_shared<RunFlags>();
  declareRunFlags(sub, *flags);
  declareRunBudgetFlags(sub, *flags);
  return [flags, &sub](const CommandContext& c) {
    std::string error = applyConfigFile(sub, "run", flags->config.configPath, flags->config.acks,
                                        flags->fromConfigFile);
    if (error.empty()) error = finishRunConfig(*flags, c.args);
    if (!error.empty()) return usageError(c.err, error);
    return executeRun(*flags, c.version, c.in, c.out, c.err);
  };
}

}  // namespace

Command runCommand() {
  return {"run",
          "Generate objects from the CRD, send ConversionReviews to the webhook, check every "
          "property",
          declareRunOptions};
}

}  // namespace convcheck
