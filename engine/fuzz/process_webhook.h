// A webhook of one fuzzing process: with `fuzz --jobs N -- COMMAND`, every process but the first
// (which fuzzes the job's own webhook) starts COMMAND for itself, with its own certificates, port
// and AFL++ coverage map, so the processes' cases never mix in one webhook or one map. Made by
// the fuzz job; started and stopped by the fuzzing processes.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/run/run_config.h"
#include "engine/run/target_resolution.h"
#include "engine/run/webhook_access.h"
#include "harness/fuzz/coverage_map.h"
#include "kube/crd/crd.h"

namespace convcheck {

class ProcessWebhook {
 public:
  // What the job knows of the webhook to start: run's options as given (before the job's own
  // webhook was put in them), how to reach it (COMMAND, --wait), the CRDs its certificate names,
  // the one fuzzed, and whether it gets a coverage map (--no-coverage: not).
  struct Recipe {
    RunConfig given;
    AccessOptions access;
    std::vector<Crd> crds;
    std::string crdName;
    bool coverage = true;
  };

  // Starts the webhook of `recipe` and waits until it answers; the error says why it did not.
  static std::variant<std::unique_ptr<ProcessWebhook>, std::string> start(const Recipe& recipe);
  ~ProcessWebhook();  // stops the webhook
  ProcessWebhook(const ProcessWebhook&) = delete;
  ProcessWebhook& operator=(const ProcessWebhook&) = delete;

  const ResolvedTarget& target() const { return kind_->target(); }
  TargetFactory targets() const { return access_->targets(); }
  // The map the webhook attached; null when it did not (built without AFL++) or got none.
  SharedCoverageMap* coverage() const { return coverage_; }

 private:
  ProcessWebhook() = default;

  std::unique_ptr<SharedCoverageMap> map_;  // outlives the webhook
  RunConfig config_;                        // the webhook's own URL and CA
  std::unique_ptr<WebhookAccess> access_;   // reads config_
  std::optional<KindTarget> kind_;
  SharedCoverageMap* coverage_ = nullptr;
};

// Starts the webhook of fuzzing process `job`; unset when the processes share the job's.
using StartProcessWebhook =
    std::function<std::variant<std::unique_ptr<ProcessWebhook>, std::string>(int job)>;

}  // namespace convcheck
