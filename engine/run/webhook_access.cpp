#include "engine/run/webhook_access.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "engine/run/target_flags.h"
#include "engine/run/target_kinds.h"

namespace convcheck {

KindTarget::KindTarget(ResolvedTarget target, std::unique_ptr<KubectlPortForward> portForward)
    : target_(std::move(target)), portForward_(std::move(portForward)) {}

std::optional<std::string> KindTarget::endedEarly(std::chrono::milliseconds grace) const {
  return portForward_ ? portForward_->endedEarly(grace) : std::nullopt;
}

WebhookAccess::WebhookAccess(const RunConfig& config, AccessOptions options)
    : config_(config), options_(std::move(options)) {}

WebhookAccess::~WebhookAccess() = default;

std::variant<std::unique_ptr<WebhookAccess>, AccessError> WebhookAccess::open(
    RunConfig& config, AccessOptions options, const std::vector<Crd>& crds) {
  if (auto error = oneWayToReach(!config.url.empty(), !options.command.empty(), config.serviceProxy,
                                 config.portForward);
      !error.empty())
    return AccessError{2, error};
  std::unique_ptr<WebhookAccess> access(new WebhookAccess(config, std::move(options)));
  const AccessOptions& o = access->options_;
  access->givenUrl_ = config.url;
  if (!o.command.empty()) {
    auto started = LaunchedWebhook::start(o.command, config, crds, o.environment);
    if (auto* error = std::get_if<std::string>(&started)) return AccessError{2, *error};
    access->webhook_ = std::move(std::get<std::unique_ptr<LaunchedWebhook>>(started));
    access->wait_ = access->webhook_->wait(o.wait.count() > 0 ? o.wait : kLaunchWait);
  } else if (o.wait.count() > 0) {
    access->wait_ = std::make_shared<WebhookWait>(o.wait);
  }
  if (config.serviceProxy) {
    auto started = startServiceProxy(config.cluster);
    if (auto* error = std::get_if<std::string>(&started)) return AccessError{2, *error};
    access->serviceProxy_ = std::move(std::get<std::unique_ptr<KubectlProxy>>(started));
  }
  return access;
}

std::variant<KindTarget, AccessError> WebhookAccess::forKind(const Crd& crd) const {
  std::unique_ptr<KubectlPortForward> portForward;
  if (config_.portForward) {
    if (auto error = portForwardUnsupported(crd); !error.empty()) return AccessError{2, error};
    auto started = startPortForward(config_.cluster, crd, config_.portForwardWait);
    if (auto* error = std::get_if<std::string>(&started))
      return AccessError{3, fmt::format("{}: could not reach the webhook: {}", crd.name, *error)};
    portForward = std::move(std::get<std::unique_ptr<KubectlPortForward>>(started));
  }
  auto resolved = resolveTarget(
      crd, TargetChoice{portForward ? portForward->baseUrl() : config_.url, config_.transport,
                        config_.reviewVersion, serviceProxy_ ? serviceProxy_->baseUrl() : ""});
  if (auto* error = std::get_if<std::string>(&resolved)) return AccessError{2, *error};
  ResolvedTarget target = std::get<ResolvedTarget>(std::move(resolved));
  target.function = options_.function;
  return KindTarget(std::move(target), std::move(portForward));
}

TargetFactory WebhookAccess::targets() const {
  TargetFactory open = targetFactory(options_.targets);
  return wait_ ? waitingTargets(std::move(open), wait_) : open;
}

std::string WebhookAccess::await(const ResolvedTarget& target) const {
  return wait_ ? wait_->await(target) : "";
}

void WebhookAccess::finish(RunReport& report) {
  report.reach = reach();
  if (webhook_) webhook_->finish(report);
}

TransportOptions WebhookAccess::lasting(TransportOptions transport) const {
  if (!webhook_ || transport.tls.caFile.empty()) return transport;
  std::ifstream file(transport.tls.caFile, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  if (!file || text.str().empty()) return transport;  // the bundle names the file where it was
  transport.tls.caPem = text.str();
  transport.tls.caFile.clear();
  return transport;
}

WebhookReach WebhookAccess::reach() const {
  WebhookReach reach;
  if (!options_.command.empty()) {
    reach.how = WebhookReach::How::Command;
    reach.command = options_.command;
    reach.portOfCommand = givenUrl_.empty() || givenUrl_.find("{port}") != std::string::npos;
  } else if (config_.serviceProxy) {
    reach.how = WebhookReach::How::ServiceProxy;
  } else if (config_.portForward) {
    reach.how = WebhookReach::How::PortForward;
  } else if (isApiOnlyTarget(config_.url)) {
    reach.how = WebhookReach::How::InProcess;
  }
  return reach;
}

}  // namespace convcheck
