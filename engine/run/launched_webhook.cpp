#include "engine/run/launched_webhook.h"

#include <fmt/format.h>

#include "harness/transport/serving_certs.h"

namespace convcheck {

std::variant<std::unique_ptr<LaunchedWebhook>, std::string> LaunchedWebhook::start(
    const std::vector<std::string>& command, RunConfig& config, const std::vector<Crd>& crds,
    const std::vector<std::string>& environment) {
  auto started = WebhookProcess::start({command, launchDnsNames(crds), environment});
  if (auto* error = std::get_if<std::string>(&started))
    return fmt::format("cannot start the webhook command: {}", *error);
  auto process = std::move(std::get<std::unique_ptr<WebhookProcess>>(started));
  config.url = config.url.empty()
                   ? fmt::format("https://127.0.0.1:{}{}", process->port(), launchPath(crds))
                   : expandPlaceholders(config.url, process->certDir(), process->port());
  if (config.transport.tls.caFile.empty() && !config.transport.tls.insecureSkipVerify)
    config.transport.tls.caFile = process->caFile();
  return std::unique_ptr<LaunchedWebhook>(new LaunchedWebhook(std::move(process)));
}

std::shared_ptr<WebhookWait> LaunchedWebhook::wait(std::chrono::milliseconds limit) {
  WebhookProcess* process = process_.get();
  return std::make_shared<WebhookWait>(limit, [process] {
    const std::string how = process->ended();
    return how.empty() ? how
                       : fmt::format("the webhook command {}; {}", how,
                                     process->stderrTail().empty()
                                         ? std::string("it wrote nothing to stderr")
                                         : "its stderr ends:\n" + process->stderrTail());
  });
}

std::string LaunchedWebhook::crashText(const std::string& how) const {
  const std::string tail = process_->stderrTail();
  return fmt::format("the webhook command ({}) {} during the run; {}", process_->argv().front(),
                     how,
                     tail.empty() ? "it wrote nothing to stderr" : "its stderr ends:\n" + tail);
}

void LaunchedWebhook::finish(RunReport& report) {
  const std::string how = process_->stop();
  if (how.empty()) return;
  const std::string text = crashText(how);
  if (report.exitCode == 3 || report.kinds.empty()) {
    // Already said when it ended before answering (the wait's message).
    if (report.fatalError.find("the webhook command") == std::string::npos)
      report.fatalError += (report.fatalError.empty() ? "" : "\n") + text;
    return;
  }
  report.warnings.push_back(text);
  // Said with each problem whose example a failed call shows (what every report prints).
  for (auto& kind : report.kinds)
    for (auto& problem : kind.problems)
      for (const auto& exchange : problem.example.exchanges)
        if (!exchange->http.ok()) {
          problem.example.details.push_back(text);
          break;
        }
}

}  // namespace convcheck
