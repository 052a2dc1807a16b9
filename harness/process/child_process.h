// The one place convcheck starts child processes (a webhook started with -- COMMAND, kubectl, the
// fuzz engine's processes): each in a process group of its own, ended when convcheck ends however
// it ends (parent-death signal), holding no descriptor of convcheck's but its standard streams, and
// stopped as a group. Used by engine/run/webhook_process, harness/cluster, engine/fuzz and tests.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace convcheck {

// How a child ended.
struct ExitStatus {
  bool exited = false;  // it exited (code is valid); else a signal ended it
  int code = -1;
  int signal = 0;      // the signal that ended it when !exited
  long maxRssKiB = 0;  // its peak resident set size (wait4's ru_maxrss)
  bool success() const { return exited && code == 0; }
  // "exited with code 3" or "killed by signal 9 (Killed)".
  std::string describe() const;
};

// What to start. The child's stdin is /dev/null; stdout and stderr go to the descriptors given
// (-1: /dev/null); every other descriptor is closed before the command runs, whatever its
// close-on-exec flag (a webhook instrumented for AFL++ that inherited 198 or 199 would wait for a
// fork server).
struct ChildSpec {
  std::vector<std::string> argv;           // argv[0] is searched on PATH unless it holds a '/'
  std::vector<std::string> environment{};  // NAME=VALUE added to (or replacing) convcheck's
  std::string workingDir{};                // "": convcheck's
  int stdoutFd = -1;
  int stderrFd = -1;
  // The signal the child gets when the thread that started it ends (convcheck killed, even with
  // SIGKILL). Start children from a thread that outlives them: the command's main thread.
  int deathSignal = 0;  // 0: SIGKILL
};

class ChildProcess {
 public:
  // Starts the command in a process group of its own (stopped as a whole, with whatever it starts)
  // with default signal handling and no signal blocked. The error says why it could not run
  // ("cannot execute NAME: No such file or directory").
  static std::variant<ChildProcess, std::string> start(const ChildSpec& spec);
  // Forks a copy of this process that runs `body`, which must end it (_exit or exec): for the
  // fuzz engine's processes. It stays in convcheck's process group (a terminal's Ctrl-C reaches
  // it) and gets `deathSignal` (0: SIGKILL) when the forking thread ends.
  static std::variant<ChildProcess, std::string> fork(const std::function<void()>& body,
                                                      int deathSignal = 0);

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();  // stop()

  pid_t pid() const { return pid_; }

  // How it ended once it has; nullopt while it runs. It stays a zombie until stop() or wait(), so
  // its process group cannot be taken by another process meanwhile.
  std::optional<ExitStatus> ended();
  // Waits up to `timeout` for it to end on its own.
  std::optional<ExitStatus> waitFor(std::chrono::milliseconds timeout);
  // Waits for it to end, then stops what is left of its group.
  ExitStatus wait();
  // Sends `signo` to it (to its group when it has one of its own); nothing once it was stopped.
  void signal(int signo);
  // SIGTERM to its group, SIGKILL to what is left of the group after `grace`; returns how it
  // ended (as it had ended before, when it ended on its own). Called again, returns the same.
  ExitStatus stop(std::chrono::milliseconds grace = std::chrono::seconds(5));

 private:
  ChildProcess(pid_t pid, bool ownGroup) : pid_(pid), ownGroup_(ownGroup) {}
  // Reaps it (after killing what is left of its group) once it has ended.
  ExitStatus reap();

  pid_t pid_ = -1;
  bool ownGroup_ = true;
  std::optional<ExitStatus> reaped_;
};

// convcheck's environment with `added` (NAME=VALUE) added, or replacing the same names.
std::vector<std::string> childEnvironment(const std::vector<std::string>& added);

}  // namespace convcheck
