#include "harness/cluster/kubectl_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

namespace convcheck {

std::variant<pid_t, std::string> spawnKubectl(const ClusterAccess& access,
                                              const std::vector<std::string>& args, int outFd,
                                              int errFd) {
  std::vector<std::string> argv = {access.kubectl};
  for (auto& a : access.globalArgs()) argv.push_back(a);
  for (auto& a : args) argv.push_back(a);
  std::vector<char*> cargs;
  for (const auto& a : argv) cargs.push_back(const_cast<char*>(a.c_str()));
  cargs.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, outFd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, errFd, STDERR_FILENO);
  // The run blocks SIGINT and SIGTERM for its own watcher, and a blocked mask survives exec.
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
  int error = posix_spawnp(&pid, cargs[0], &actions, &attr, cargs.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0)
    return fmt::format(
        "cannot run {}: {} (convcheck reaches clusters through kubectl: install it "
        "or put it on PATH)",
        argv[0], std::strerror(error));
  return pid;
}

std::string trimmedKubectlText(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.pop_back();
  return text;
}

namespace {

// A fresh temporary file for kubectl's output: its descriptor (close-on-exec) and path.
std::variant<int, std::string> backgroundKubectlLog(std::filesystem::path& path) {
  char name[] = "/tmp/convcheck-kubectl-XXXXXX";
  int fd = mkostemp(name, O_CLOEXEC);
  if (fd < 0) return std::string("temporary file: ") + std::strerror(errno);
  path = name;
  return fd;
}

}  // namespace

std::variant<std::unique_ptr<BackgroundKubectl>, std::string> BackgroundKubectl::start(
    const ClusterAccess& access, const std::vector<std::string>& args) {
  std::unique_ptr<BackgroundKubectl> process(new BackgroundKubectl());
  auto out = backgroundKubectlLog(process->out_);
  if (auto* error = std::get_if<std::string>(&out)) return *error;
  auto err = backgroundKubectlLog(process->err_);
  if (auto* error = std::get_if<std::string>(&err)) {
    close(std::get<int>(out));
    return *error;
  }
  auto spawned = spawnKubectl(access, args, std::get<int>(out), std::get<int>(err));
  close(std::get<int>(out));
  close(std::get<int>(err));
  if (auto* error = std::get_if<std::string>(&spawned)) return *error;
  process->pid_ = std::get<pid_t>(spawned);
  return process;
}

std::string BackgroundKubectl::readFile(const std::filesystem::path& file) const {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::optional<std::string> BackgroundKubectl::awaitOutput(const std::regex& pattern,
                                                          std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const std::string text = readFile(out_);
    std::smatch m;
    if (std::regex_search(text, m, pattern)) return m.size() > 1 ? m[1].str() : m[0].str();
    if (exited() || std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

bool BackgroundKubectl::exited() {
  if (pid_ <= 0) return true;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
  pid_ = -1;
  return true;
}

std::string BackgroundKubectl::message() const {
  std::string text = trimmedKubectlText(readFile(err_));
  return text.empty() ? trimmedKubectlText(readFile(out_)) : text;
}

BackgroundKubectl::~BackgroundKubectl() {
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
  if (!out_.empty()) std::filesystem::remove(out_, ec);
  if (!err_.empty()) std::filesystem::remove(err_, ec);
}

}  // namespace convcheck
