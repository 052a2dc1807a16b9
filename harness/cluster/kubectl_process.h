// Starting kubectl: one run to its end, or one that keeps running in the background (kubectl
// proxy, kubectl port-forward) until stopped. Used by harness/cluster's kubectl.cpp and
// kubectl_port_forward.cpp only.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <variant>
#include <vector>

#include "harness/cluster/kubectl.h"

namespace convcheck {

// Starts `kubectl [--kubeconfig --context] args...` (PATH searched) with stdin from /dev/null and
// stdout and stderr on the given descriptors, with default signal handling and no signal blocked.
// Returns the pid, or an error that says convcheck reaches clusters through kubectl.
std::variant<pid_t, std::string> spawnKubectl(const ClusterAccess& access,
                                              const std::vector<std::string>& args, int outFd,
                                              int errFd);

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

  // Polls stdout until a line matches `pattern` (its first group is returned), kubectl ends, or
  // `timeout` passes (both nullopt; exited() tells which).
  std::optional<std::string> awaitOutput(const std::regex& pattern,
                                         std::chrono::milliseconds timeout);
  // kubectl has exited (it is then reaped).
  bool exited();
  // What kubectl wrote to stderr (else to stdout), trailing blank lines removed; "" if nothing.
  std::string message() const;

 private:
  BackgroundKubectl() = default;
  std::string readFile(const std::filesystem::path& file) const;
  pid_t pid_ = -1;
  std::filesystem::path out_, err_;
};

// `text` without trailing newlines and spaces.
std::string trimmedKubectlText(std::string text);

}  // namespace convcheck
