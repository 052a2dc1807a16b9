#include "app/cli/release_options.h"

#include <sstream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "engine/run/target_kinds.h"
#include "engine/run/webhook_process.h"
#include "engine/run/webhook_wait.h"
#include "kube/crd/crd_loader.h"

namespace convcheck {

namespace {

std::string urlHelp(const std::string& release) {
  return "Webhook URL of the " + release +
         " release's webhook (https://, or http:// for local development); default: its CRD's "
         "clientConfig.url";
}

std::string commandHelp(const std::string& release) {
  return "Start the " + release +
         " release's webhook for the run and stop it after: a command line (no shell) whose "
         "{certdir} and {port} are replaced as in `run -- COMMAND`";
}

std::string caHelp(const std::string& release) {
  return "CA bundle (PEM) for the " + release +
         " release's serving certificate; default: its CRD's caBundle, else system roots";
}

std::string serverNameHelp(const std::string& release) {
  return "Name to verify the " + release +
         " release's certificate for; default for service references: <name>.<namespace>.svc";
}

}  // namespace

void declareReleaseOptions(CLI::App& app, ReleaseFlags& oldFlags, ReleaseFlags& newFlags) {
  app.add_option("--old-url", oldFlags.url, urlHelp("old"));
  app.add_option("--old-webhook-command", oldFlags.command, commandHelp("old"));
  app.add_option("--old-ca-file", oldFlags.caFile, caHelp("old"));
  app.add_option("--old-tls-server-name", oldFlags.tlsServerName, serverNameHelp("old"));
  app.add_option("--new-url", newFlags.url, urlHelp("new"));
  app.add_option("--new-webhook-command", newFlags.command, commandHelp("new"));
  app.add_option("--new-ca-file", newFlags.caFile, caHelp("new"));
  app.add_option("--new-tls-server-name", newFlags.tlsServerName, serverNameHelp("new"));
}

std::string splitCommandLine(const std::string& text, std::vector<std::string>& argv) {
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote == '\'') {
      if (c == '\'')
        quote = 0;
      else
        word += c;
    } else if (c == '\\' && i + 1 < text.size() &&
               (quote == 0 || std::string("\"\\$`").find(text[i + 1]) != std::string::npos)) {
      word += text[++i];
      inWord = true;
    } else if (quote == '"') {
      if (c == '"')
        quote = 0;
      else
        word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      inWord = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (inWord) argv.push_back(std::move(word));
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote != 0) return fmt::format("unterminated {} quote in: {}", quote, text);
  if (inWord) argv.push_back(std::move(word));
  return "";
}

std::string readReleaseFlags(const std::string& name, const ReleaseFlags& flags,
                             const TargetFlags& shared, ReleaseTarget& target,
                             std::vector<std::string>& command) {
  const std::string prefix = "--" + name + "-";
  if (!flags.command.empty()) {
    if (auto error = splitCommandLine(flags.command, command); !error.empty())
      return prefix + "webhook-command: " + error;
    if (command.empty()) return prefix + "webhook-command: empty";
  }
  if (!command.empty() && (target.serviceProxy || target.portForward))
    return fmt::format(
        "{}webhook-command and --{}: choose one way to reach the {} release's "
        "webhook",
        prefix, target.serviceProxy ? "service-proxy" : "port-forward", name);
  if (!flags.url.empty() && (target.serviceProxy || target.portForward))
    return fmt::format("{}url and --{}: choose one way to reach the {} release's webhook", prefix,
                       target.serviceProxy ? "service-proxy" : "port-forward", name);
  TargetFlags own = shared;
  own.url = command.empty() ? flags.url : expandPlaceholders(flags.url, "", 1);
  own.caFile = flags.caFile;
  own.tlsServerName = flags.tlsServerName;
  if (auto error = applyTargetFlags(own, target.transport); !error.empty()) {
    // The messages name the shared flags: say which release's they are.
    for (const char* flag : {"--url", "--ca-file", "--tls-server-name"})
      if (error.rfind(flag, 0) == 0) return prefix + error.substr(2);
    return error;
  }
  target.url = flags.url;
  return "";
}

std::string ReleaseWebhooks::start(const std::string& name, const std::vector<std::string>& command,
                                   const std::string& crdInput, const std::string& crdText,
                                   ReleaseTarget& target, std::chrono::milliseconds wait) {
  if (command.empty()) {
    if (wait.count() > 0)
      target.makeTarget = waitingTargets(openTarget, std::make_shared<WebhookWait>(wait));
    return "";
  }
  RunConfig config;  // what LaunchedWebhook fills: the URL, the CA
  config.url = target.url;
  config.transport = target.transport;
  std::vector<Crd> crds;  // the names its certificate is for (a CRD of the cluster: none)
  if (crdInput.rfind("kube://", 0) != 0) {
    std::istringstream in(crdText);
    crds = loadCrdInput(crdInput, in).crds;  // errors: said when the release loads its CRD
  }
  auto launched = LaunchedWebhook::start(command, config, crds);
  if (auto* error = std::get_if<std::string>(&launched))
    return fmt::format("the {} release's webhook: {}", name, *error);
  webhooks_.push_back(std::move(std::get<std::unique_ptr<LaunchedWebhook>>(launched)));
  target.url = config.url;
  target.transport = config.transport;
  target.makeTarget =
      waitingTargets(openTarget, webhooks_.back()->wait(wait.count() > 0 ? wait : kLaunchWait));
  return "";
}

void ReleaseWebhooks::finish(RunReport& report) {
  for (auto& webhook : webhooks_) webhook->finish(report);
  webhooks_.clear();
}

}  // namespace convcheck
