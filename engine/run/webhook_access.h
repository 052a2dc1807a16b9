// How a job reaches its webhook: at a URL, as a webhook the job starts (-- COMMAND), through the
// API server's service proxy or a port-forward per kind (kubectl), or in this process (a
// conversion function); waited for (--wait) and stopped at the end. One for every mode of the
// engine (run, fuzz, replay, minimize), so each reaches the webhook the same way.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/run/launched_webhook.h"
#include "engine/run/run_config.h"
#include "engine/run/target_resolution.h"
#include "engine/run/webhook_wait.h"
#include "harness/transport/function_target.h"
#include "kube/crd/crd.h"
#include "reports/run_report.h"

namespace convcheck {

// What a job says about reaching the webhook beyond RunConfig's target (url, transport,
// serviceProxy, portForward, cluster).
struct AccessOptions {
  std::vector<std::string> command;      // -- COMMAND: the webhook to start for the job
  std::vector<std::string> environment;  // NAME=VALUE for it (e.g. an AFL++ coverage map)
  std::chrono::milliseconds wait{0};     // --wait (0: a started webhook gets kLaunchWait)
  ReviewFunction function = {};          // what answers an inprocess:// URL
  TargetFactory targets = {};            // tests: targets of their own (unset: the kinds table)
};

// Why the webhook cannot be reached: bad input (exit 2) or not reachable (exit 3).
struct AccessError {
  int exitCode = 2;
  std::string message;
};

// One kind's target: resolved against its CRD, through its own port-forward when there is one.
class KindTarget {
 public:
  KindTarget(ResolvedTarget target, std::unique_ptr<KubectlPortForward> portForward);
  const ResolvedTarget& target() const { return target_; }
  // How the port-forward ended when it ended while the kind ran, or ends within `grace` (calls
  // after it failed for that reason, not the webhook's).
  std::optional<std::string> endedEarly(
      std::chrono::milliseconds grace = std::chrono::milliseconds(0)) const;

 private:
  ResolvedTarget target_;
  std::unique_ptr<KubectlPortForward> portForward_;
};

class WebhookAccess {
 public:
  // Starts what the whole job shares: the webhook of -- COMMAND (a certificate for the names of
  // `crds`; config.url and the CA then point at it) and the service proxy. config.url, its
  // transport and the way to reach are checked first.
  static std::variant<std::unique_ptr<WebhookAccess>, AccessError> open(
      RunConfig& config, AccessOptions options, const std::vector<Crd>& crds);
  ~WebhookAccess();
  WebhookAccess(const WebhookAccess&) = delete;
  WebhookAccess& operator=(const WebhookAccess&) = delete;

  // The kind's target (a port-forward to its service starts here): exit 2 for a target the CRD
  // does not allow, exit 3 for a port-forward that did not start.
  std::variant<KindTarget, AccessError> forKind(const Crd& crd) const;
  // Makes the kind's targets (one per concurrent caller): the first call of each waits for the
  // webhook as --wait (or a started webhook) says.
  TargetFactory targets() const;
  // Waits for the webhook now, when the job waits at all: "" once it answers, else why not.
  std::string await(const ResolvedTarget& target) const;
  // Stops the started webhook; says in `report` when it had ended on its own during the job.
  void finish(RunReport& report);
  // How the webhook was reached, for bundles (replay reaches it again).
  WebhookReach reach() const;
  // `transport` as it stays usable once the job is done, for its bundles: the CA a started
  // webhook's certificates were made with is held as text (caPem), since its file goes with the
  // webhook's certificate directory when the job ends.
  TransportOptions lasting(TransportOptions transport) const;

 private:
  WebhookAccess(const RunConfig& config, AccessOptions options);

  const RunConfig& config_;
  AccessOptions options_;
  std::string givenUrl_;  // config.url before a started webhook's port was put in
  std::unique_ptr<LaunchedWebhook> webhook_;
  std::unique_ptr<KubectlProxy> serviceProxy_;
  std::shared_ptr<WebhookWait> wait_;  // null: the first call does not wait
};

}  // namespace convcheck
