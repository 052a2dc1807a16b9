// --wait for run, replay and minimize: the first call to a webhook waits until it answers (TLS
// handshake), up to a limit, so a run started beside a starting webhook does not fail at once.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "engine/run/target_resolution.h"

namespace convcheck {

// Says why waiting is pointless ("" while it is not): e.g. the webhook's process has exited.
using WaitStopReason = std::function<std::string()>;

// The wait of one command, shared by all its targets (any thread).
class WebhookWait {
 public:
  explicit WebhookWait(std::chrono::milliseconds limit, WaitStopReason stopReason = {});

  // Waits (once per URL; the first caller waits, the others block until it is done) for the
  // webhook at target.url to answer. Returns "" when it did, or when the failure was already
  // returned to an earlier caller; else a "Connect: ..." message (exit code 3) saying how long
  // it waited and why it stopped.
  std::string await(const ResolvedTarget& target);

 private:
  std::chrono::milliseconds limit_;
  WaitStopReason stopReason_;
  std::mutex mutex_;                    // guards waited_, held while waiting
  std::map<std::string, bool> waited_;  // URL -> its outcome was returned
};

// Targets from `inner` whose first post awaits `wait` and, when the webhook never answered,
// returns that failure as a connect error instead of posting.
TargetFactory waitingTargets(TargetFactory inner, std::shared_ptr<WebhookWait> wait);

}  // namespace convcheck
