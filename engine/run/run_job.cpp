#include "engine/run/run_job.h"

#include "engine/run/crd_source.h"
#include "engine/run/runner.h"

namespace convcheck {

Verdict runJob(RunConfig config, AccessOptions accessOptions, std::istream& in) {
  if (!config.started) config.started = std::chrono::steady_clock::now();
  Verdict verdict;
  const LoadResult loaded = loadCrdSource(config.crdInput, in, config.cluster);
  if (!loaded.ok()) {
    verdict.report = failedToLoad(config, loaded);
  } else {
    auto opened = WebhookAccess::open(config, std::move(accessOptions), loaded.crds);
    if (auto* error = std::get_if<AccessError>(&opened)) {
      verdict.errors.push_back(error->message);
      verdict.exitCode = error->exitCode;
      return verdict;
    }
    WebhookAccess& access = *std::get<std::unique_ptr<WebhookAccess>>(opened);
    verdict.report = runConformance(config, loaded, access);
    access.finish(verdict.report);
    verdict.url = config.url;
    verdict.transport = access.lasting(config.transport);
  }
  verdict.reported = true;
  verdict.exitCode = verdict.report.exitCode;
  return verdict;
}

}  // namespace convcheck
