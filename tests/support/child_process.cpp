#include "tests/support/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "tests/support/test_pki.h"

extern char** environ;

namespace convcheck::test {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(10);

// The parent's environment with `extra` entries added or replacing same-named ones.
std::vector<std::string> buildEnvironment(const std::vector<std::string>& extra) {
  std::map<std::string, std::string> entries;
  auto add = [&](const std::string& entry) {
    auto eq = entry.find('=');
    entries[entry.substr(0, eq)] = entry;
  };
  for (char** e = environ; e && *e; ++e) add(*e);
  for (const auto& entry : extra) add(entry);
  std::vector<std::string> result;
  for (auto& [name, entry] : entries) result.push_back(entry);
  return result;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (auto& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

int openLog(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    throw std::runtime_error("ChildProcess: cannot create " + path.string() + ": " +
                             std::strerror(errno));
  return fd;
}

// Runs in the child between fork and exec: only async-signal-safe calls.
[[noreturn]] void execChild(char** argv, char** envp, const char* workingDir, int outFd, int errFd,
                            int reportFd, pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int signo : {SIGTERM, SIGINT, SIGPIPE, SIGCHLD}) ::signal(signo, SIG_DFL);
  int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  bool ready = devNull >= 0 && dup2(devNull, STDIN_FILENO) >= 0 &&
               dup2(outFd, STDOUT_FILENO) >= 0 && dup2(errFd, STDERR_FILENO) >= 0 &&
               (!workingDir || chdir(workingDir) == 0);
  if (ready) execve(argv[0], argv, envp);
  int error = errno;
  (void)!write(reportFd, &error, sizeof error);
  _exit(127);
}

}  // namespace

std::string ExitStatus::describe() const {
  return exited ? "exit code " + std::to_string(code)
                : "killed by signal " + std::to_string(signal);
}

ChildProcess::ChildProcess(std::vector<std::string> argv, ChildProcessOptions options)
    : argv_(std::move(argv)) {
  if (argv_.empty()) throw std::invalid_argument("ChildProcess: empty argv");
  logDir_ = makeTempDir("convcheck-child");
  int outFd = openLog(logDir_ / "stdout.log");
  int errFd = openLog(logDir_ / "stderr.log");
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) throw std::runtime_error("ChildProcess: pipe2 failed");

  // Everything the child needs is prepared before fork.
  std::vector<std::string> args = argv_;
  std::vector<std::string> env = buildEnvironment(options.extraEnv);
  auto argvPtrs = pointers(args);
  auto envPtrs = pointers(env);
  const char* workingDir = options.workingDir.empty() ? nullptr : options.workingDir.c_str();
  const pid_t parent = getpid();

  pid_ = fork();
  if (pid_ == 0)
    execChild(argvPtrs.data(), envPtrs.data(), workingDir, outFd, errFd, report[1], parent);
  int forkErrno = errno;
  ::close(outFd);
  ::close(errFd);
  ::close(report[1]);
  if (pid_ < 0) {
    ::close(report[0]);
    std::filesystem::remove_all(logDir_);
    throw std::runtime_error("ChildProcess: fork failed: " + std::string(std::strerror(forkErrno)));
  }
  int execErrno = 0;
  ssize_t got;
  do {
    got = ::read(report[0], &execErrno, sizeof execErrno);
  } while (got < 0 && errno == EINTR);
  ::close(report[0]);
  if (got > 0) {
    reap(true);
    std::filesystem::remove_all(logDir_);
    throw std::runtime_error("ChildProcess: cannot execute " + argv_[0] + ": " +
                             std::strerror(execErrno));
  }
}

ChildProcess::~ChildProcess() {
  stop(std::chrono::seconds(5));
  std::error_code ignored;
  std::filesystem::remove_all(logDir_, ignored);
}

bool ChildProcess::reap(bool block) {
  if (status_) return true;
  int raw = 0;
  rusage usage{};
  pid_t done;
  do {
    done = wait4(pid_, &raw, block ? 0 : WNOHANG, &usage);
  } while (done < 0 && errno == EINTR);
  if (done != pid_) return false;
  ExitStatus status;
  status.exited = WIFEXITED(raw);
  status.code = status.exited ? WEXITSTATUS(raw) : -1;
  status.signal = WIFSIGNALED(raw) ? WTERMSIG(raw) : 0;
  status.maxRssKiB = usage.ru_maxrss;
  status_ = status;
  return true;
}

bool ChildProcess::running() { return !reap(false); }

std::optional<ExitStatus> ChildProcess::wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!reap(false)) {
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(kPollInterval);
  }
  return status_;
}

void ChildProcess::signal(int signo) {
  if (!status_) ::kill(pid_, signo);
}

ExitStatus ChildProcess::stop(std::chrono::milliseconds grace) {
  if (!status_) {
    ::kill(pid_, SIGTERM);
    if (!wait(grace)) {
      ::kill(pid_, SIGKILL);
      reap(true);
    }
  }
  return *status_;
}

std::string ChildProcess::readStream(Stream stream) const {
  std::ifstream in(logDir_ / (stream == Stream::Stdout ? "stdout.log" : "stderr.log"),
                   std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string ChildProcess::stdoutText() const { return readStream(Stream::Stdout); }
std::string ChildProcess::stderrText() const { return readStream(Stream::Stderr); }

std::optional<std::vector<std::string>> ChildProcess::waitForLine(const std::regex& pattern,
                                                                  std::chrono::milliseconds timeout,
                                                                  Stream stream) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::size_t scanned = 0;  // bytes of complete lines already checked
  while (true) {
    // Check the exit first, then read: output written before the exit is then never missed.
    const bool ended = !running();
    const std::string text = readStream(stream);
    std::size_t end;
    while ((end = text.find('\n', scanned)) != std::string::npos) {
      const std::string line = text.substr(scanned, end - scanned);
      scanned = end + 1;
      std::smatch match;
      if (std::regex_search(line, match, pattern))
        return std::vector<std::string>(match.begin(), match.end());
    }
    if (ended || std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(kPollInterval);
  }
}

}  // namespace convcheck::test
