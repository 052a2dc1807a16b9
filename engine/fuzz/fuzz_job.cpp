#include "engine/fuzz/fuzz_job.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "engine/fuzz/afl_coverage.h"
#include "engine/fuzz/fuzz_engine.h"
#include "engine/run/crd_selection.h"
#include "engine/run/crd_source.h"

namespace convcheck {

namespace {

Verdict failed(std::vector<std::string> errors, int exitCode = 2) {
  Verdict verdict;
  verdict.errors = std::move(errors);
  verdict.exitCode = exitCode;
  return verdict;
}

Verdict reported(RunReport report) {
  Verdict verdict;
  verdict.exitCode = report.exitCode;
  verdict.report = std::move(report);
  verdict.reported = true;
  return verdict;
}

// Fuzzes `crd` once its webhook answers; the report says why not when it never did.
// `ownWebhook`: set when every fuzzing process but the first starts a webhook of its own.
RunReport fuzzReachable(const Crd& crd, const KindTarget& kind, FuzzConfig& config,
                        WebhookAccess& access, SharedCoverageMap* coverageMap,
                        const StartProcessWebhook& ownWebhook) {
  config.target = kind.target();
  if (std::string failure = access.await(config.target); !failure.empty()) {
    RunReport report;
    report.fatalError = fmt::format("{}: could not reach the webhook: {}", crd.name, failure);
    report.exitCode = 3;
    return report;
  }
  const EventSink& events = config.run.events;
  if (coverageMap) {
    const CoverageChoice coverage = chooseCoverage(*coverageMap);
    std::string notice = coverage.notice;
    if (ownWebhook && coverage.map)
      notice += fmt::format("; each of the {} processes fuzzes a webhook with a map of its own",
                            config.jobs);
    tell(events, Note{Note::Level::Info, "convcheck fuzz: " + notice});
    config.coverage = coverage.map;
  }
  tell(events,
       Note{Note::Level::Info,
            fmt::format("convcheck fuzz: {} ({}), seed {}, {} process(es), budget {} s", crd.name,
                        config.target.url, config.run.seed, config.jobs, config.maxTotalTime)});
  RunReport report = runFuzz(crd, config, access.targets(), ownWebhook);
  if (auto ended = kind.endedEarly()) report.warnings.push_back(crd.name + ": " + *ended);
  return report;
}

}  // namespace

Verdict fuzzJob(FuzzConfig config, AccessOptions accessOptions, std::istream& in) {
  RunConfig& c = config.run;
  if (!c.started) c.started = std::chrono::steady_clock::now();  // --max-total-time counts from it
  std::unique_ptr<SharedCoverageMap> coverageMap;                // outlives the webhook
  if (!accessOptions.command.empty() && config.webhookCoverage) {
    auto made = makeCoverageMap(std::getenv("AFL_MAP_SIZE"));
    if (auto* error = std::get_if<std::string>(&made)) return failed({*error});
    coverageMap = std::move(std::get<std::unique_ptr<SharedCoverageMap>>(made));
    accessOptions.environment = coverageMap->environment();
  }
  const LoadResult loaded = loadCrdSource(c.crdInput, in, c.cluster);
  if (!loaded.ok()) {
    std::vector<std::string> errors;
    for (const auto& e : loaded.errors) errors.push_back(e.text());
    return failed(errors);
  }
  auto chosen = chooseCrd(loaded.crds, c.kinds.empty() ? "" : c.kinds.front(), c.crdInput);
  if (auto* error = std::get_if<std::string>(&chosen)) return failed({*error});
  const Crd& crd = *std::get<const Crd*>(chosen);
  // With -- COMMAND and several processes, every process but the first starts the webhook anew
  // (its own port, certificates and coverage map) from the options as given.
  StartProcessWebhook ownWebhook;
  if (!accessOptions.command.empty() && config.jobs > 1) {
    AccessOptions access = accessOptions;
    access.environment.clear();
    ownWebhook = [recipe = ProcessWebhook::Recipe{c, access, loaded.crds, crd.name,
                                                  config.webhookCoverage}](int) {
      return ProcessWebhook::start(recipe);
    };
  }
  auto opened = WebhookAccess::open(c, std::move(accessOptions), loaded.crds);
  if (auto* error = std::get_if<AccessError>(&opened))
    return failed({error->message}, error->exitCode);
  WebhookAccess& access = *std::get<std::unique_ptr<WebhookAccess>>(opened);
  // kubectl (--service-proxy, --port-forward) runs beside the fuzzing processes until the end.
  auto target = access.forKind(crd);
  RunReport report;
  if (auto* error = std::get_if<AccessError>(&target)) {
    if (error->exitCode != 3) return failed({error->message});
    report.fatalError = error->message;
    report.exitCode = 3;
  } else {
    report = fuzzReachable(crd, std::get<KindTarget>(target), config, access, coverageMap.get(),
                           ownWebhook);
  }
  access.finish(report);
  Verdict verdict = reported(std::move(report));
  verdict.url = c.url;
  verdict.transport = access.lasting(c.transport);
  return verdict;
}

}  // namespace convcheck
