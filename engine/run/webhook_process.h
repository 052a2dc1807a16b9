// `convcheck run ... -- COMMAND ARGS`: the webhook started as a child process with certificates
// convcheck made and a free port, stopped after the run; how it ended, and its stderr when it
// crashed. Used by the CLI around the run.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "harness/process/child_process.h"
#include "kube/crd/crd.h"

namespace convcheck {

// What the started webhook is given; ARGS may name them as {certdir} and {port}.
struct WebhookLaunch {
  std::vector<std::string> argv;      // COMMAND ARGS as written (placeholders not yet replaced)
  std::vector<std::string> dnsNames;  // of the serving certificate convcheck makes
  std::vector<std::string> environment{};  // NAME=VALUE added to (or replacing) convcheck's
};

// The certificate names for the CRDs under test: each service reference's (serviceDnsNames),
// else localhost; 127.0.0.1 is always an IP SAN.
std::vector<std::string> launchDnsNames(const std::vector<Crd>& crds);

// The path the webhook serves: the first service reference's path, else the first clientConfig
// URL's path, else /convert.
std::string launchPath(const std::vector<Crd>& crds);

// `text` with every {certdir} and {port} replaced.
std::string expandPlaceholders(const std::string& text, const std::string& certDir, int port);

class WebhookProcess {
 public:
  // Makes a temporary directory with certificates (ca.crt, tls.crt, tls.key), picks a free port
  // on 127.0.0.1 and starts the command (PATH searched) with placeholders replaced, stdout and
  // stderr to files of the directory. The error says why it could not start.
  static std::variant<std::unique_ptr<WebhookProcess>, std::string> start(
      const WebhookLaunch& launch);
  ~WebhookProcess();  // stops the process and removes the directory
  WebhookProcess(const WebhookProcess&) = delete;
  WebhookProcess& operator=(const WebhookProcess&) = delete;

  int port() const { return port_; }
  std::string certDir() const;
  std::string caFile() const;  // the CA that signed certDir()'s tls.crt
  const std::vector<std::string>& argv() const { return argv_; }  // as started

  // "" while it runs; once it has ended, how ("exited with code 1", "killed by signal 11").
  std::string ended();
  // SIGTERM to its process group, SIGKILL to what is left of it after `grace`. Returns how it
  // ended when it had ended on its own before (a crash during the run), else "".
  std::string stop(std::chrono::milliseconds grace = std::chrono::seconds(5));
  // The last `lines` lines of what it wrote to stderr.
  std::string stderrTail(int lines = 20) const;

 private:
  WebhookProcess() = default;

  std::filesystem::path dir_;
  std::vector<std::string> argv_;
  int port_ = 0;
  std::optional<ChildProcess> child_;
  bool stopping_ = false;  // stop() was called
};

}  // namespace convcheck
