// `convcheck fuzz --crd … --url … [--corpus DIR] [--max-total-time 10m] [--runs N] [--jobs N]
// [--merge]`: a coverage-guided search (libFuzzer, fed by the webhook's behaviour) for cases that
// break a property, with run's target, TLS, config and report options; the problems found are
// reported as run reports them (shrunk, bundled, stored as regressions). Exit 1 when it found a
// problem, 0 when the budget ran out without one, 2 usage/input, 3 unreachable. Listed in
// command_table.cpp.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <istream>
#include <memory>
#include <ostream>
#include <random>
#include <sstream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "engine/run/launched_webhook.h"
#include "app/cli/run_outputs.h"
#include "app/cli/shared_options.h"
#include "engine/fuzz/afl_coverage.h"
#include "engine/fuzz/fuzz_engine.h"
#include "engine/run/crd_selection.h"
#include "engine/run/crd_source.h"
#include "engine/run/target_resolution.h"
#include "engine/run/webhook_wait.h"
#include "kube/go/duration.h"
#include "reports/shell_words.h"

namespace convcheck {

namespace {

struct FuzzFlags {
  FuzzConfig config;
  std::string kind, reviewVersion, dateTimes = "canonical", properties, colour = "auto";
  std::string maxTotalTime;     // "": FuzzConfig's default
  std::string maxResponseSize;  // "": TransportOptions' default
  TargetFlags target;
  bool seedGiven = false;
  std::vector<std::string> webhookCommand;  // after --: the webhook to start for the fuzz run
  bool noCoverage = false;                  // give a started webhook no AFL++ coverage map
  std::vector<std::string> fromConfigFile;  // what the config file gave, for the reproduction
};

void declareFuzzFlags(CLI::App& fuzz, FuzzFlags& f) {
  RunConfig& c = f.config.run;
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
                  "Time budget for fuzzing, e.g. 10m (shrinking and reports come after it)")
      ->default_str(fmt::format("{}s", f.config.maxTotalTime));
  fuzz.add_option("--runs", f.config.runs,
                  "Cases each fuzzing process runs at most (default: until the time budget)");
  fuzz.add_option("--jobs,-j", f.config.jobs,
                  "Fuzzing processes side by side, sharing the corpus directory")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  fuzz.add_flag("--stop-on-problem", f.config.stopOnProblem,
                "End fuzzing at the first problem any process finds (it is still shrunk and "
                "reported); default: fuzz for the whole budget");
  fuzz.add_flag("--merge", f.config.merge,
                "Minimise the corpus's fuzz/ inputs instead of fuzzing: smallest first, each kept "
                "only when it shows behaviour no input kept before it showed");
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

// Fills what CLI11 could not: target, budget, properties, seed, report paths.
std::string finishFuzzConfig(FuzzFlags& f, const std::vector<std::string>& args) {
  RunConfig& c = f.config.run;
  const auto dashes = std::find(args.begin(), args.end(), "--");
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
    f.config.maxTotalTime = static_cast<int>((budget->count() + 999) / 1000);
  }
  if (auto error = readPropertyIds(f.properties, c.properties); !error.empty()) return error;
  if (!f.kind.empty()) c.kinds = {f.kind};
  if (!f.seedGiven) c.seed = std::random_device{}() * 0x100000001ull + std::random_device{}();
  std::vector<std::string> repro = {"convcheck"};
  repro.insert(repro.end(), args.begin(), dashes);
  repro.insert(repro.end(), f.fromConfigFile.begin(), f.fromConfigFile.end());
  if (!f.seedGiven) repro.insert(repro.end(), {"--seed", std::to_string(c.seed)});
  repro.insert(repro.end(), dashes, args.end());
  c.commandLine = shellCommand(repro);
  return resolveReportPaths(c);
}

// Loads the CRD, starts the webhook (-- COMMAND) or waits for it (--wait), fuzzes, reports.
int executeFuzz(FuzzFlags& f, const std::string& version, std::istream& in, std::ostream& out,
                std::ostream& err) {
  RunConfig& c = f.config.run;
  if (!c.reportDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(c.reportDir, ec);
    if (ec) {
      err << fmt::format("convcheck: cannot create --report-dir {}: {}\n", c.reportDir,
                         ec.message());
      return 2;
    }
  }
  std::string crdText;
  std::istringstream crdStream;
  std::unique_ptr<SharedCoverageMap> coverageMap;  // outlives the webhook
  std::unique_ptr<LaunchedWebhook> webhook;
  if (!f.webhookCommand.empty()) {
    if (!f.noCoverage) {
      auto made = makeCoverageMap(std::getenv("AFL_MAP_SIZE"));
      if (auto* error = std::get_if<std::string>(&made)) {
        err << "convcheck: " << *error << "\n";
        return 2;
      }
      coverageMap = std::move(std::get<std::unique_ptr<SharedCoverageMap>>(made));
    }
    auto launched = LaunchedWebhook::start(
        f.webhookCommand, c, in, crdText,
        coverageMap ? coverageMap->environment() : std::vector<std::string>{});
    if (auto* error = std::get_if<std::string>(&launched)) {
      err << "convcheck: " << *error << "\n";
      return 2;
    }
    webhook = std::move(std::get<std::unique_ptr<LaunchedWebhook>>(launched));
    crdStream.str(crdText);
  }
  LoadResult loaded = loadCrdSource(c.crdInput, webhook ? crdStream : in, c.cluster);
  for (const auto& e : loaded.errors) err << "convcheck: " << e.text() << "\n";
  if (!loaded.errors.empty()) return 2;
  auto chosen = chooseCrd(loaded.crds, c.kinds.empty() ? "" : c.kinds.front(), c.crdInput);
  if (auto* error = std::get_if<std::string>(&chosen)) {
    err << "convcheck: " << *error << "\n";
    return 2;
  }
  const Crd& crd = *std::get<const Crd*>(chosen);
  // --service-proxy and --port-forward: kubectl runs beside the fuzzing processes until the end.
  std::unique_ptr<KubectlProxy> serviceProxy;
  std::unique_ptr<KubectlPortForward> portForward;
  RunReport report;
  if (c.serviceProxy) {
    auto started = startServiceProxy(c.cluster);
    if (auto* error = std::get_if<std::string>(&started)) {
      err << "convcheck: " << *error << "\n";
      return 2;
    }
    serviceProxy = std::move(std::get<std::unique_ptr<KubectlProxy>>(started));
  }
  if (c.portForward) {
    if (auto error = portForwardUnsupported(crd); !error.empty()) {
      err << "convcheck: " << error << "\n";
      return 2;
    }
    auto started = startPortForward(c.cluster, crd, c.portForwardWait);
    if (auto* error = std::get_if<std::string>(&started)) {
      report.fatalError = fmt::format("{}: could not reach the webhook: {}", crd.name, *error);
      report.exitCode = 3;
      report.version = version;
      writeRunOutputs(report, c, f.colour, out, err);
      return report.exitCode;
    }
    portForward = std::move(std::get<std::unique_ptr<KubectlPortForward>>(started));
  }
  auto resolved = resolveTarget(
      crd, TargetChoice{portForward ? portForward->baseUrl() : c.url, c.transport, c.reviewVersion,
                        serviceProxy ? serviceProxy->baseUrl() : ""});
  if (auto* error = std::get_if<std::string>(&resolved)) {
    err << "convcheck: " << *error << "\n";
    return 2;
  }
  f.config.target = std::get<ResolvedTarget>(resolved);
  std::chrono::milliseconds wait{0};
  if (auto error = readWait(f.target, wait); !error.empty()) {
    err << "convcheck: " << error << "\n";
    return 2;
  }
  std::shared_ptr<WebhookWait> waiting;
  if (webhook)
    waiting = webhook->wait(wait.count() > 0 ? wait : kLaunchWait);
  else if (wait.count() > 0)
    waiting = std::make_shared<WebhookWait>(wait);
  if (std::string failure = waiting ? waiting->await(f.config.target) : ""; !failure.empty()) {
    report.fatalError = fmt::format("{}: could not reach the webhook: {}", crd.name, failure);
    report.exitCode = 3;
  } else {
    if (coverageMap) {
      const CoverageChoice coverage = chooseCoverage(*coverageMap, f.config.jobs);
      err << "convcheck fuzz: " << coverage.notice << "\n";
      f.config.coverage = coverage.map;
    }
    err << fmt::format("convcheck fuzz: {} ({}), seed {}, {} process(es), budget {} s\n", crd.name,
                       f.config.target.url, c.seed, f.config.jobs, f.config.maxTotalTime);
    report = runFuzz(crd, f.config, err);
    if (auto ended = portForward ? portForward->endedEarly() : std::nullopt)
      report.warnings.push_back(crd.name + ": " + *ended);
  }
  if (webhook) webhook->finish(report);
  report.version = version;
  writeRunOutputs(report, c, f.colour, out, err);
  return report.exitCode;
}

Execute declareFuzzOptions(CLI::App& sub) {
  auto f = std::make_shared<FuzzFlags>();
  declareFuzzFlags(sub, *f);
  return [f, &sub](const CommandContext& c) {
    RunConfig& run = f->config.run;
    std::string error = applyConfigFile(sub, "fuzz", run.configPath, run.acks, f->fromConfigFile);
    if (error.empty()) error = finishFuzzConfig(*f, c.args);
    if (!error.empty()) {
      c.err << "convcheck: " << error << "\n";
      return 2;
    }
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
