// `convcheck fuzz --crd … --url … [--corpus DIR] [--max-total-time 10m] [--runs N]`: a
// coverage-guided search (libFuzzer, fed by the webhook's behaviour) for cases that break a
// property; each problem found is shrunk, bundled and stored as a regression. Exit 1 when it found
// a problem, 0 when the budget ran out without one, 2 usage/input, 3 unreachable. Listed in
// command_table.cpp.
#include <filesystem>
#include <istream>
#include <memory>
#include <ostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "app/cli/shared_options.h"
#include "app/fuzz/fuzz_engine.h"
#include "app/run/webhook_wait.h"
#include "kube/crd/crd_loader.h"
#include "kube/go/duration.h"
#include "properties/config/ack_config.h"

namespace convcheck {

namespace {

struct FuzzFlags {
  std::string crd, kind, reviewVersion, dateTimes = "canonical", configPath;
  TargetFlags target;
  bool http2 = false, rawObjects = false;
  std::string corpus, reportDir = "convcheck-fuzz", maxTotalTime = "60s";
  std::int64_t runs = -1;
  std::uint64_t seed = 0;
  int batchSize = 8, shrinkBudget = 200;
};

void declareFuzzFlags(CLI::App* fuzz, FuzzFlags& f) {
  declareCrdOption(*fuzz, f.crd);
  declareKindOption(*fuzz, f.kind);
  declareTargetOptions(*fuzz, f.target, TargetDefaults::Crd);
  declareWaitOption(*fuzz, f.target);
  declareHttp2Option(*fuzz, f.http2);
  declareReviewVersionOption(*fuzz, f.reviewVersion);
  declareDateTimesOption(*fuzz, f.dateTimes);
  fuzz->add_option("--config", f.configPath,
                   "Acknowledged differences (YAML, see README; run options are not read); "
                   "default: .convcheck.yaml in the current directory when there is one");
  declareRawObjectsOption(*fuzz, f.rawObjects);
  fuzz->add_option("--corpus", f.corpus,
                   "Corpus directory kept between runs: fuzz/ holds the inputs that showed new "
                   "behaviour, regressions/ receives the shrunk problems (replayed by `run`)");
  fuzz->add_option("--max-total-time", f.maxTotalTime,
                   "Time budget for fuzzing, e.g. 10m (shrinking and reports come after it)")
      ->default_val("60s");
  fuzz->add_option("--runs", f.runs, "Cases to run at most (default: until the time budget)");
  declareSeedOption(*fuzz, f.seed, "libFuzzer's random seed (default: random, printed)");
  fuzz->add_option("--batch-size", f.batchSize, "Largest batch of objects in one fuzz case")
      ->default_val(8)
      ->check(CLI::Range(1, 1000));
  declareTimeoutOption(*fuzz, f.target, TargetDefaults::Crd);
  fuzz->add_option("--report-dir", f.reportDir,
                   "Write the bundles of the problems found here (bundles/)")
      ->default_val("convcheck-fuzz");
  declareShrinkBudgetOption(*fuzz, f.shrinkBudget, 200);
}

int runFuzzCommand(const FuzzFlags& f, const std::string& version,
                   const std::vector<std::string>& args, std::istream& in, std::ostream& out,
                   std::ostream& err) {
  LoadResult loaded = loadCrdInput(f.crd, in);
  for (const auto& e : loaded.errors) err << "convcheck: " << e.text() << "\n";
  if (!loaded.errors.empty()) return 2;
  const Crd* crd = nullptr;
  for (const auto& c : loaded.crds)
    if (f.kind.empty() || c.kind == f.kind || c.name == f.kind) {
      if (crd) {
        err << "convcheck: " << f.crd << " holds several CRDs; choose one with --kind\n";
        return 2;
      }
      crd = &c;
    }
  if (!crd) {
    err << "convcheck: " << f.crd << ": no CRD" << (f.kind.empty() ? "" : " of kind " + f.kind)
        << "\n";
    return 2;
  }
  FuzzConfig config;
  TransportOptions transport;
  transport.http2 = f.http2;
  if (auto error = applyTargetFlags(f.target, transport); !error.empty()) {
    err << "convcheck: " << error << "\n";
    return 2;
  }
  TargetChoice choice{f.target.url, transport, std::nullopt};
  if (auto error = readReviewVersion(f.reviewVersion, choice.reviewVersion); !error.empty()) {
    err << "convcheck: " << error << "\n";
    return 2;
  }
  auto resolved = resolveTarget(*crd, choice);
  if (auto* error = std::get_if<std::string>(&resolved)) {
    err << "convcheck: " << *error << "\n";
    return 2;
  }
  config.target = std::get<ResolvedTarget>(resolved);
  std::chrono::milliseconds wait{0};
  if (auto error = readWait(f.target, wait); !error.empty()) {
    err << "convcheck: " << error << "\n";
    return 2;
  }
  if (wait.count() > 0) {
    if (auto failure = WebhookWait(wait).await(config.target); !failure.empty()) {
      err << fmt::format("convcheck: could not reach the webhook: {}\n", failure);
      return 3;
    }
  }
  auto budget = parseDuration(f.maxTotalTime);
  if (!budget || budget->count() < 0) {
    err << fmt::format("convcheck: --max-total-time {}: expected a duration such as 10m or 90s\n",
                       f.maxTotalTime);
    return 2;
  }
  config.maxTotalTime = static_cast<int>((budget->count() + 999) / 1000);
  std::optional<AckConfig> acks;
  std::string configPath = f.configPath;
  if (configPath.empty() && std::filesystem::exists(".convcheck.yaml"))
    configPath = ".convcheck.yaml";
  if (!configPath.empty()) {
    auto read = loadAckConfig(configPath);
    if (auto* error = std::get_if<std::string>(&read)) {
      err << "convcheck: " << *error << "\n";
      return 2;
    }
    acks = std::get<AckConfig>(std::move(read));
  }
  config.settings = KindSettings{GeneratorOptions{FormatOptions{f.dateTimes == "canonical"}},
                                 f.rawObjects, acks ? &*acks : nullptr};
  config.corpusDir = f.corpus;
  config.reportDir = f.reportDir;
  config.runs = f.runs;
  config.seed = f.seed;
  config.maxBatch = static_cast<std::size_t>(f.batchSize);
  config.shrinkBudget = f.shrinkBudget;
  config.convcheckVersion = version;
  config.commandLine = "convcheck";
  for (const auto& a : args) config.commandLine += " " + a;
  return runFuzz(*crd, config, out, err);
}

Execute declareFuzzOptions(CLI::App& sub) {
  auto f = std::make_shared<FuzzFlags>();
  declareFuzzFlags(&sub, *f);
  return [f](const CommandContext& c) {
    return runFuzzCommand(*f, c.version, c.args, c.in, c.out, c.err);
  };
}

}  // namespace

Command fuzzCommand() {
  return {"fuzz",
          "Search for cases that break a property, guided by the webhook's behaviour (libFuzzer); "
          "exit 1 when a problem was found",
          declareFuzzOptions};
}

}  // namespace convcheck
