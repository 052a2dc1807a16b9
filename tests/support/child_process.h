// A child process for integration tests: fork/exec of an argv (no shell), stdout and stderr
// captured to files, waiting for a line, stopping, exit status. Used by ExampleWebhook and tests.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace convcheck::test {

struct ChildProcessOptions {
  std::vector<std::string>
      extraEnv{};            // "NAME=value" entries added to (or replacing) the environment
  std::string workingDir{};  // empty = the parent's
};

// How the child ended.
struct ExitStatus {
  bool exited = false;  // exited normally; `code` is valid
  int code = -1;
  int signal = 0;      // the signal that killed it when !exited
  long maxRssKiB = 0;  // peak resident set size of the child itself (wait4's ru_maxrss)
  bool success() const { return exited && code == 0; }
  std::string describe() const;  // "exit code 3" / "killed by signal 9"
};

enum class Stream { Stdout, Stderr };

// Starts on construction; argv[0] is a path (no PATH search). Throws std::runtime_error naming
// argv[0] if it cannot be executed. Always stopped (SIGTERM, then SIGKILL) and reaped by the
// destructor.
class ChildProcess {
 public:
  explicit ChildProcess(std::vector<std::string> argv, ChildProcessOptions options = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  const std::vector<std::string>& argv() const { return argv_; }

  // Waits until a complete line of the stream matches `pattern` (std::regex_search) and returns
  // its match groups ([0] = whole match); nullopt on timeout or if the process ends first.
  std::optional<std::vector<std::string>> waitForLine(const std::regex& pattern,
                                                      std::chrono::milliseconds timeout,
                                                      Stream stream = Stream::Stdout);

  std::string stdoutText() const;
  std::string stderrText() const;

  bool running();
  // Waits up to `timeout` for the process to end on its own.
  std::optional<ExitStatus> wait(std::chrono::milliseconds timeout);
  // SIGTERM, then SIGKILL after `grace`; returns how it ended. Idempotent.
  ExitStatus stop(std::chrono::milliseconds grace = std::chrono::seconds(5));
  // Sends a signal (e.g. SIGINT) without waiting; no-op once reaped.
  void signal(int signo);
  // The exit status once reaped.
  const std::optional<ExitStatus>& exitStatus() const { return status_; }

 private:
  bool reap(bool block);
  std::string readStream(Stream stream) const;

  std::vector<std::string> argv_;
  std::filesystem::path logDir_;
  pid_t pid_ = -1;
  std::optional<ExitStatus> status_;
};

}  // namespace convcheck::test
