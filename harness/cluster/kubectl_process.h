// Starting kubectl (through harness/process, the one owner of child processes): one run to its
// end, or one that keeps running in the background (kubectl proxy, kubectl port-forward) until
// stopped. Used by harness/cluster's kubectl.cpp and kubectl_port_forward.cpp only.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "harness/cluster/kubectl.h"
#include "harness/process/child_process.h"

namespace convcheck {

// Starts `kubectl [--kubeconfig --context] args...` (PATH searched) with stdout and stderr on the
// given descriptors. The error says convcheck reaches clusters through kubectl.
std::variant<ChildProcess, std::string> spawnKubectl(const ClusterAccess& access,
                                                     const std::vector<std::string>& args,
                                                     int outFd, int errFd);

// The port of the first complete line of `text` that reads `before` PORT `after` (`after` ""
// allows anything after the digits): "Forwarding from 127.0.0.1:" 41234 " -> ". A line still
// being written is not read.
std::optional<std::string> portInLine(const std::string& text, const std::string& before,
                                      const std::string& after);

// A kubectl left running: its stdout and stderr go to temporary files (read while it runs, so it
// never blocks on a full pipe); the destructor stops it (SIGTERM, then SIGKILL after 5 s) and
// removes the files.
class BackgroundKubectl {
 public:
  static std::variant<std::unique_ptr<BackgroundKubectl>, std::string> start(
      const ClusterAccess& access, const std::vector<std::string>& args);
  ~BackgroundKubectl();
  BackgroundKubectl(const BackgroundKubectl&) = delete;
  BackgroundKubectl& operator=(const BackgroundKubectl&) = delete;

  // Polls stdout until a line reads `before` PORT `after` (portInLine; the port is returned),
  // kubectl ends, or `timeout` passes (both nullopt; exited() tells which).
  std::optional<std::string> awaitPort(const std::string& before, const std::string& after,
                                       std::chrono::milliseconds timeout);
  // kubectl has exited.
  bool exited() { return process_->ended().has_value(); }
  // What kubectl wrote to stderr (else to stdout), trailing blank lines removed; "" if nothing.
  std::string message() const;

 private:
  explicit BackgroundKubectl(ChildProcess process) : process_(std::move(process)) {}
  std::string readFile(const std::filesystem::path& file) const;
  std::optional<ChildProcess> process_;
  std::filesystem::path out_, err_;
};

// `text` without trailing newlines and spaces.
std::string trimmedKubectlText(std::string text);

}  // namespace convcheck
