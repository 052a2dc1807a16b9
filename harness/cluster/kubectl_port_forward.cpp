#include "harness/cluster/kubectl_port_forward.h"

#include <thread>

#include <fmt/format.h>

#include "harness/cluster/kubectl_process.h"

namespace convcheck {

std::vector<std::string> portForwardArgs(const ServiceReference& service) {
  return {"port-forward", "--namespace=" + service.ns, "--address=127.0.0.1",
          "service/" + service.name, ":" + std::to_string(service.port)};
}

std::variant<std::unique_ptr<KubectlPortForward>, std::string> KubectlPortForward::start(
    const ClusterAccess& access, const ServiceReference& service, std::chrono::milliseconds wait) {
  const std::string what = fmt::format("kubectl port-forward to service {}/{} port {}", service.ns,
                                       service.name, service.port);
  auto started = BackgroundKubectl::start(access, portForwardArgs(service));
  if (auto* error = std::get_if<std::string>(&started)) return what + ": " + *error;
  std::unique_ptr<KubectlPortForward> forward(new KubectlPortForward());
  forward->what_ = what;
  forward->process_ = std::move(std::get<std::unique_ptr<BackgroundKubectl>>(started));
  if (auto port = forward->process_->awaitPort("Forwarding from 127.0.0.1:", " -> ", wait)) {
    forward->baseUrl_ = "https://127.0.0.1:" + *port;
    return forward;
  }
  const std::string said = forward->process_->message();
  if (forward->process_->exited())
    return fmt::format("{} ended before forwarding: {}", what,
                       said.empty() ? "it printed nothing" : said);
  return fmt::format("{} did not start forwarding within {:g} s{}{}", what,
                     static_cast<double>(wait.count()) / 1000, said.empty() ? "" : ": ", said);
}

std::optional<std::string> KubectlPortForward::endedEarly(std::chrono::milliseconds grace) {
  const auto until = std::chrono::steady_clock::now() + grace;
  while (!process_->exited() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (!process_->exited()) return std::nullopt;
  // kubectl's own error comes last, after the connections' log lines.
  std::string said = process_->message();
  said = said.substr(said.find_last_of('\n') + 1);
  return fmt::format("{} ended during the run: {}", what_,
                     said.empty() ? "it printed nothing" : said);
}

KubectlPortForward::~KubectlPortForward() = default;

}  // namespace convcheck
