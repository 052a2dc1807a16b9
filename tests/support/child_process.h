// A child process for integration tests: an argv (no shell) started by the product's owner of
// child processes (harness/process), stdout and stderr captured to files, waiting for a line,
// stopping, exit status. Used by ExampleWebhook and tests.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "harness/process/child_process.h"

namespace convcheck::test {

struct ChildProcessOptions {
  std::vector<std::string>
      extraEnv{};            // "NAME=value" entries added to (or replacing) the environment
  std::string workingDir{};  // empty = the parent's
};

// How the child ended (its peak RSS included).
using ExitStatus = convcheck::ExitStatus;

enum class Stream { Stdout, Stderr };

// Starts on construction; argv[0] is searched on PATH unless it holds a '/'. Throws
// std::runtime_error naming argv[0] if it cannot be executed. Always stopped (SIGTERM, then
// SIGKILL) and reaped by the destructor.
class ChildProcess {
 public:
  explicit ChildProcess(std::vector<std::string> argv, ChildProcessOptions options = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return process_.pid(); }
  const std::vector<std::string>& argv() const { return argv_; }

  // Waits until a complete line of the stream matches `pattern` (std::regex_search) and returns
  // its match groups ([0] = whole match); nullopt on timeout or if the process ends first.
  std::optional<std::vector<std::string>> waitForLine(const std::regex& pattern,
                                                      std::chrono::milliseconds timeout,
                                                      Stream stream = Stream::Stdout);

  std::string stdoutText() const;
  std::string stderrText() const;

  bool running();
  // Waits up to `timeout` for it to end, without reaping it (what is left of its process group is
  // left alone until wait() or stop()).
  bool endsWithin(std::chrono::milliseconds timeout);
  // Waits up to `timeout` for the process to end on its own.
  std::optional<ExitStatus> wait(std::chrono::milliseconds timeout);
  // SIGTERM, then SIGKILL after `grace`; returns how it ended. Idempotent.
  ExitStatus stop(std::chrono::milliseconds grace = std::chrono::seconds(5));
  // Sends a signal (e.g. SIGINT) to the process alone (not its group) without waiting; no-op once
  // it ended.
  void signal(int signo);

 private:
  std::string readStream(Stream stream) const;

  std::vector<std::string> argv_;
  std::filesystem::path logDir_;
  convcheck::ChildProcess process_;
};

}  // namespace convcheck::test
