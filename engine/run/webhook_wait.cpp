#include "engine/run/webhook_wait.h"

#include <fmt/format.h>

#include "engine/run/target_kinds.h"
#include "harness/transport/endpoint_wait.h"
#include "kube/go/duration.h"

namespace convcheck {

WebhookWait::WebhookWait(std::chrono::milliseconds limit, WaitStopReason stopReason)
    : limit_(limit), stopReason_(std::move(stopReason)) {}

std::string WebhookWait::await(const ResolvedTarget& target) {
  if (!isNetworkTarget(target.url)) return "";  // nothing to connect to
  std::lock_guard<std::mutex> lock(mutex_);
  if (waited_.count(target.url) != 0) return "";
  waited_[target.url] = true;
  const auto keepWaiting = [this] { return !stopReason_ || stopReason_().empty(); };
  EndpointWait wait = waitForEndpoint(target.url, target.transport.tls, limit_, keepWaiting);
  if (wait.ready) return "";
  if (!keepWaiting())
    return fmt::format("Connect: the webhook stopped before it answered at {} (after {}): {}",
                       target.url, formatGoDuration(wait.waited), stopReason_());
  return describeWaitFailure(target.url, wait, limit_);
}

namespace {

class WaitingTarget : public ReviewTarget {
 public:
  WaitingTarget(std::unique_ptr<ReviewTarget> inner, ResolvedTarget target,
                std::shared_ptr<WebhookWait> wait)
      : inner_(std::move(inner)), target_(std::move(target)), wait_(std::move(wait)) {}

  HttpResult post(const std::string& body) override {
    if (wait_) {
      std::string failure = wait_->await(target_);
      wait_.reset();
      if (!failure.empty()) {
        HttpResult result;
        result.url = target_.url;
        result.transportErrorKind = TransportErrorKind::Connect;
        result.transportError = std::move(failure);
        return result;
      }
    }
    return inner_->post(body);
  }

 private:
  std::unique_ptr<ReviewTarget> inner_;
  ResolvedTarget target_;
  std::shared_ptr<WebhookWait> wait_;  // until the first post
};

}  // namespace

TargetFactory waitingTargets(TargetFactory inner, std::shared_ptr<WebhookWait> wait) {
  return [inner = std::move(inner), wait = std::move(wait)](const ResolvedTarget& target) {
    return std::unique_ptr<ReviewTarget>(
        std::make_unique<WaitingTarget>(inner(target), target, wait));
  };
}

}  // namespace convcheck
