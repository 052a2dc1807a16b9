// `convcheck run ... -- COMMAND ARGS` around the run: the webhook started for it (certificates,
// port, the URL and CA the run then uses), waited for, stopped after it, and its crash reported
// in the findings or the run's error. Used by the run and fuzz commands.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "engine/run/run_config.h"
#include "engine/run/webhook_process.h"
#include "engine/run/webhook_wait.h"
#include "reports/run_report.h"

namespace convcheck {

// How long the run waits for a started webhook when --wait is not given.
inline constexpr std::chrono::seconds kLaunchWait{60};

class LaunchedWebhook {
 public:
  // Starts the command with a certificate for the names of `crds` and points the job at it:
  // config.url (the given --url with {port} replaced, else https://127.0.0.1:PORT/PATH, PATH the
  // CRDs' webhook path) and, without --ca-file, the CA it made. The error says why it could not
  // start (exit code 2). `environment` (NAME=VALUE) is added to the webhook's.
  static std::variant<std::unique_ptr<LaunchedWebhook>, std::string> start(
      const std::vector<std::string>& command, RunConfig& config, const std::vector<Crd>& crds,
      const std::vector<std::string>& environment = {});

  // Waits for the webhook up to `limit`, and not once it has ended.
  std::shared_ptr<WebhookWait> wait(std::chrono::milliseconds limit);

  // Stops the webhook; when it had ended on its own during the run, says so with the tail of its
  // stderr: in the run's error when nothing could be tested, else as a warning and in the details
  // of every problem whose example saw a failed call.
  void finish(RunReport& report);

 private:
  explicit LaunchedWebhook(std::unique_ptr<WebhookProcess> process)
      : process_(std::move(process)) {}
  std::string crashText(const std::string& how) const;

  std::unique_ptr<WebhookProcess> process_;
};

}  // namespace convcheck
