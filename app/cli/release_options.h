// The options of two releases' webhooks, which `convcheck upgrade` and `convcheck diff` take: for
// each of the old and the new release a URL or a command to start (a command line whose
// {certdir} and {port} are replaced, as run's -- COMMAND), a CA and a server name; and starting
// those commands for the command's run. Used by upgrade_command.cpp and diff_command.cpp.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "app/cli/shared_options.h"
#include "engine/run/launched_webhook.h"
#include "engine/upgrade/release.h"

namespace CLI {
class App;
}

namespace convcheck {

// One release's webhook as the command line gives it ("": not given).
struct ReleaseFlags {
  std::string url, command, caFile, tlsServerName;
};

// --old-url, --old-webhook-command, --old-ca-file, --old-tls-server-name and the same with --new-.
void declareReleaseOptions(CLI::App& app, ReleaseFlags& oldFlags, ReleaseFlags& newFlags);

// `text` split into arguments as a POSIX shell splits a simple command, without running one:
// blanks separate words, '…' keeps everything, "…" and a backslash escape; an unterminated quote
// is an error ("" when none).
std::string splitCommandLine(const std::string& text, std::vector<std::string>& argv);

// One release's flags (`name`: "old" or "new") and the shared --timeout, into `target`; returns
// an error or "". A webhook command goes to `command`, its {port} placeholder allowed in the URL.
std::string readReleaseFlags(const std::string& name, const ReleaseFlags& flags,
                             const TargetFlags& shared, ReleaseTarget& target,
                             std::vector<std::string>& command);

// The webhooks started for a command's run, stopped (and their crashes told) at the end.
class ReleaseWebhooks {
 public:
  // Starts `command` (when not empty) for the release whose CRD is `crdInput` (its text in
  // `crdText` when it is "-"), pointing `target` at it (URL and CA) and making its targets wait up
  // to `wait` (0: kLaunchWait) for it; without a command, the targets wait up to `wait` (when not
  // 0) for the webhook at the URL. Returns an error (exit 2) or "".
  std::string start(const std::string& name, const std::vector<std::string>& command,
                    const std::string& crdInput, const std::string& crdText, ReleaseTarget& target,
                    std::chrono::milliseconds wait);
  // Stops them; a crash during the run goes into `report` (LaunchedWebhook::finish).
  void finish(RunReport& report);

 private:
  std::vector<std::unique_ptr<LaunchedWebhook>> webhooks_;
};

}  // namespace convcheck
