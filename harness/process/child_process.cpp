#include "harness/process/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

#include <fmt/format.h>

extern char** environ;

namespace convcheck {

namespace {

// Everything the child needs between fork and exec, made before fork: after it, in a process
// with other threads, only async-signal-safe calls are allowed.
struct Prepared {
  std::vector<std::string> argv, env;
  std::vector<char*> argvPointers, envPointers;
  const char* workingDir = nullptr;
  bool searchPath = false;
  int stdoutFd = -1, stderrFd = -1;
  int deathSignal = SIGKILL;
  pid_t parent = -1;
};

std::vector<char*> pointersTo(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// The parent-death signal, set before anything else: when the parent already ended between fork
// and prctl (nobody would send it then), the child ends at once.
void endWithParent(int deathSignal, pid_t parent) {
  if (prctl(PR_SET_PDEATHSIG, deathSignal) != 0 || getppid() != parent) _exit(127);
}

// Closes every descriptor from `from` on except `keep`.
void closeDescriptorsFrom(int from, int keep) {
  const auto closeRange = [](int first, int last) {
    if (first > last) return;
    if (close_range(static_cast<unsigned>(first), static_cast<unsigned>(last), 0) == 0) return;
    for (int fd = first; fd <= std::min(last, 65535); ++fd) close(fd);  // kernels before 5.9
  };
  if (keep >= from) {
    closeRange(from, keep - 1);
    closeRange(keep + 1, ~0U >> 1);
  } else {
    closeRange(from, ~0U >> 1);
  }
}

// Between fork and exec (async-signal-safe calls only): a process group of its own, default
// signal handling and no signal blocked (convcheck blocks SIGINT/SIGTERM for its watcher and
// ignores SIGPIPE, and both survive exec), stdin from /dev/null, stdout and stderr as asked,
// no other descriptor; errno to `reportFd` when it cannot exec.
[[noreturn]] void execChild(const Prepared& p, int reportFd) {
  endWithParent(p.deathSignal, p.parent);
  setpgid(0, 0);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction defaults {};
  defaults.sa_handler = SIG_DFL;
  for (int signo = 1; signo < NSIG; ++signo) sigaction(signo, &defaults, nullptr);
  // The streams' sources move above 2 first, so that setting one cannot clobber another's.
  const int given[3] = {open("/dev/null", O_RDONLY),
                        p.stdoutFd >= 0 ? p.stdoutFd : open("/dev/null", O_WRONLY),
                        p.stderrFd >= 0 ? p.stderrFd : open("/dev/null", O_WRONLY)};
  int sources[3];
  for (int i = 0; i < 3; ++i) sources[i] = given[i] >= 0 ? fcntl(given[i], F_DUPFD, 3) : -1;
  bool ready = true;
  for (int target = 0; target < 3 && ready; ++target)
    ready = sources[target] >= 0 && dup2(sources[target], target) == target;
  if (ready) {
    closeDescriptorsFrom(3, reportFd);  // reportFd is close-on-exec
    if (!p.workingDir || chdir(p.workingDir) == 0) {
      char* const* argv = p.argvPointers.data();
      char* const* envp = p.envPointers.data();
      if (p.searchPath)
        execvpe(argv[0], argv, envp);
      else
        execve(argv[0], argv, envp);
    }
  }
  const int error = errno;
  (void)!write(reportFd, &error, sizeof error);
  _exit(127);
}

ExitStatus statusOf(const siginfo_t& info) {
  ExitStatus status;
  status.exited = info.si_code == CLD_EXITED;
  status.code = status.exited ? info.si_status : -1;
  status.signal = status.exited ? 0 : info.si_status;
  return status;
}

}  // namespace

std::string ExitStatus::describe() const {
  if (exited) return fmt::format("exited with code {}", code);
  return fmt::format("killed by signal {} ({})", signal, strsignal(signal));
}

std::vector<std::string> childEnvironment(const std::vector<std::string>& added) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('=') + 1);
    if (std::none_of(added.begin(), added.end(),
                     [&](const std::string& a) { return a.rfind(name, 0) == 0; }))
      env.push_back(entry);
  }
  env.insert(env.end(), added.begin(), added.end());
  return env;
}

std::variant<ChildProcess, std::string> ChildProcess::start(const ChildSpec& spec) {
  if (spec.argv.empty()) return std::string("no command to start");
  Prepared p;
  p.argv = spec.argv;
  p.env = childEnvironment(spec.environment);
  p.argvPointers = pointersTo(p.argv);
  p.envPointers = pointersTo(p.env);
  p.workingDir = spec.workingDir.empty() ? nullptr : spec.workingDir.c_str();
  p.searchPath = spec.argv.front().find('/') == std::string::npos;
  p.stdoutFd = spec.stdoutFd;
  p.stderrFd = spec.stderrFd;
  p.deathSignal = spec.deathSignal == 0 ? SIGKILL : spec.deathSignal;
  p.parent = getpid();
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0)
    return fmt::format("cannot start {}: pipe: {}", spec.argv.front(), std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid == 0) {
    close(report[0]);
    execChild(p, report[1]);
  }
  const int forkErrno = errno;
  close(report[1]);
  if (pid < 0) {
    close(report[0]);
    return fmt::format("cannot start {}: fork: {}", spec.argv.front(), std::strerror(forkErrno));
  }
  setpgid(pid, pid);  // as the child does: no signal to the group can miss it
  ChildProcess child(pid, true);
  int execErrno = 0;
  ssize_t got;
  do {
    got = read(report[0], &execErrno, sizeof execErrno);
  } while (got < 0 && errno == EINTR);
  close(report[0]);
  if (got > 0) {
    child.reap();
    return fmt::format("cannot execute {}: {}", spec.argv.front(), std::strerror(execErrno));
  }
  return child;
}

std::variant<ChildProcess, std::string> ChildProcess::fork(const std::function<void()>& body,
                                                           int deathSignal) {
  const pid_t parent = getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    endWithParent(deathSignal == 0 ? SIGKILL : deathSignal, parent);
    body();
    _exit(0);
  }
  if (pid < 0) return fmt::format("fork failed: {}", std::strerror(errno));
  return ChildProcess(pid, false);
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      ownGroup_(other.ownGroup_),
      reaped_(std::move(other.reaped_)) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    if (pid_ > 0) stop();
    pid_ = std::exchange(other.pid_, -1);
    ownGroup_ = other.ownGroup_;
    reaped_ = std::move(other.reaped_);
  }
  return *this;
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) stop(std::chrono::seconds(2));
}

std::optional<ExitStatus> ChildProcess::ended() {
  if (reaped_ || pid_ <= 0) return reaped_;
  siginfo_t info{};
  int done;
  do {
    done = waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
  } while (done < 0 && errno == EINTR);
  if (done != 0 || info.si_pid != pid_) return std::nullopt;
  return statusOf(info);
}

std::optional<ExitStatus> ChildProcess::waitFor(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    if (auto status = ended()) return status;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(20));
  }
}

ExitStatus ChildProcess::wait() {
  if (reaped_) return *reaped_;
  siginfo_t info{};
  while (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  return reap();
}

void ChildProcess::signal(int signo) {
  if (reaped_ || pid_ <= 0) return;
  ::kill(ownGroup_ ? -pid_ : pid_, signo);
}

ExitStatus ChildProcess::stop(std::chrono::milliseconds grace) {
  if (reaped_) return *reaped_;
  if (!ended()) {
    signal(SIGTERM);
    waitFor(grace);
  }
  return reap();
}

ExitStatus ChildProcess::reap() {
  if (reaped_) return *reaped_;
  // What is left of its group goes with it (SIGKILL reaches a process that is still running; the
  // zombie keeps the group's id from being taken meanwhile).
  if (ownGroup_)
    ::kill(-pid_, SIGKILL);
  else if (!ended())
    ::kill(pid_, SIGKILL);
  int raw = 0;
  rusage usage{};
  pid_t done;
  do {
    done = wait4(pid_, &raw, 0, &usage);
  } while (done < 0 && errno == EINTR);
  ExitStatus status;
  status.exited = WIFEXITED(raw);
  status.code = status.exited ? WEXITSTATUS(raw) : -1;
  status.signal = WIFSIGNALED(raw) ? WTERMSIG(raw) : 0;
  status.maxRssKiB = usage.ru_maxrss;
  reaped_ = status;
  return status;
}

}  // namespace convcheck
