#include "harness/cluster/kubectl.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

namespace convcheck {

namespace {

constexpr std::size_t kMaxOutputBytes = 512u << 20;

struct Finished {
  int exitCode = -1;  // -1: killed by a signal
  std::string out, err;
};

// Starts argv[0] (PATH searched) with stdin from /dev/null and stdout and stderr on the given
// descriptors, with default signal handling and no signal blocked (the run blocks SIGINT and
// SIGTERM for its own watcher, and a blocked mask survives exec). Returns the pid or an error.
std::variant<pid_t, std::string> spawn(const std::vector<std::string>& argv, int outFd, int errFd) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, outFd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, errFd, STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int signo : {SIGPIPE, SIGINT, SIGTERM}) sigaddset(&defaults, signo);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  int error = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0)
    return fmt::format(
        "cannot run {}: {} (convcheck reaches clusters through kubectl: install it "
        "or put it on PATH)",
        argv[0], std::strerror(error));
  return pid;
}

std::vector<std::string> kubectlArgv(const ClusterAccess& access,
                                     const std::vector<std::string>& args) {
  std::vector<std::string> argv = {access.kubectl};
  for (auto& a : access.globalArgs()) argv.push_back(a);
  for (auto& a : args) argv.push_back(a);
  return argv;
}

// Runs kubectl to the end, reading what it writes to stdout and stderr.
std::variant<Finished, std::string> runKubectl(const ClusterAccess& access,
                                               const std::vector<std::string>& args) {
  int outPipe[2], errPipe[2];
  if (pipe2(outPipe, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
  if (pipe2(errPipe, O_CLOEXEC) != 0) {
    close(outPipe[0]);
    close(outPipe[1]);
    return std::string("pipe: ") + std::strerror(errno);
  }
  auto spawned = spawn(kubectlArgv(access, args), outPipe[1], errPipe[1]);
  close(outPipe[1]);
  close(errPipe[1]);
  if (auto* error = std::get_if<std::string>(&spawned)) {
    close(outPipe[0]);
    close(errPipe[0]);
    return *error;
  }
  const pid_t pid = std::get<pid_t>(spawned);
  Finished done;
  pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&done.out, &done.err};
  int open = 2;
  char buffer[65536];
  while (open > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0 && sinks[i]->size() < kMaxOutputBytes) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  done.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (done.out.size() >= kMaxOutputBytes)
    return fmt::format("kubectl wrote more than {} MiB", kMaxOutputBytes >> 20);
  return done;
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.pop_back();
  return text;
}

}  // namespace

std::vector<std::string> ClusterAccess::globalArgs() const {
  std::vector<std::string> out;
  if (!kubeconfig.empty()) out.push_back("--kubeconfig=" + kubeconfig);
  if (!context.empty()) out.push_back("--context=" + context);
  return out;
}

RawGet getRaw(const ClusterAccess& access, const std::string& path) {
  auto ran = runKubectl(access, {"get", "--raw", path, "--request-timeout=60s"});
  if (auto* error = std::get_if<std::string>(&ran))
    return RawGet(std::in_place_index<1>, fmt::format("GET {}: {}", path, *error));
  auto& done = std::get<Finished>(ran);
  if (done.exitCode != 0)
    return RawGet(std::in_place_index<1>,
                  fmt::format("GET {}: kubectl: {}", path,
                              done.err.empty() ? "exit code " + std::to_string(done.exitCode)
                                               : trimmed(done.err)));
  return RawGet(std::in_place_index<0>, std::move(done.out));
}

std::variant<std::unique_ptr<KubectlProxy>, std::string> KubectlProxy::start(
    const ClusterAccess& access, const std::string& acceptPaths) {
  std::unique_ptr<KubectlProxy> proxy(new KubectlProxy());
  char name[] = "/tmp/convcheck-kubectl-proxy-XXXXXX";
  int logFd = mkostemp(name, O_CLOEXEC);
  if (logFd < 0) return std::string("kubectl proxy: temporary file: ") + std::strerror(errno);
  proxy->log_ = name;
  std::vector<std::string> argv = kubectlArgv(
      access, {"proxy", "--address=127.0.0.1", "--port=0", "--accept-paths=" + acceptPaths,
               "--reject-methods=^(PUT|PATCH|DELETE)$"});
  auto spawned = spawn(argv, logFd, logFd);
  close(logFd);
  if (auto* error = std::get_if<std::string>(&spawned)) return "kubectl proxy: " + *error;
  const pid_t pid = std::get<pid_t>(spawned);
  proxy->pid_ = pid;
  static const std::regex kServing(R"(Starting to serve on 127\.0\.0\.1:([0-9]+))");
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::string text;
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(proxy->log_);
    std::stringstream read;
    read << in.rdbuf();
    text = read.str();
    std::smatch m;
    if (std::regex_search(text, m, kServing)) {
      proxy->baseUrl_ = "http://127.0.0.1:" + m[1].str();
      return proxy;
    }
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      proxy->pid_ = -1;
      return fmt::format("kubectl proxy ended before serving: {}", trimmed(text));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return fmt::format("kubectl proxy did not start serving within 30 s: {}", trimmed(text));
}

KubectlProxy::~KubectlProxy() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 250 && waitpid(pid_, &status, WNOHANG) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (waitpid(pid_, &status, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
    }
  }
  std::error_code ec;
  if (!log_.empty()) std::filesystem::remove(log_, ec);
}

}  // namespace convcheck
