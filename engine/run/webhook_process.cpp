#include "engine/run/webhook_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "harness/transport/serving_certs.h"
#include "harness/transport/url_parts.h"

namespace convcheck {

namespace fs = std::filesystem;

std::vector<std::string> launchDnsNames(const std::vector<Crd>& crds) {
  std::vector<std::string> names;
  for (const auto& crd : crds)
    if (crd.clientConfig.service)
      for (auto& name :
           serviceDnsNames(crd.clientConfig.service->name, crd.clientConfig.service->ns))
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  if (names.empty()) names.push_back("localhost");
  return names;
}

std::string launchPath(const std::vector<Crd>& crds) {
  for (const auto& crd : crds)
    if (crd.clientConfig.service && !crd.clientConfig.service->path.empty())
      return crd.clientConfig.service->path;
  for (const auto& crd : crds)
    if (!crd.clientConfig.url.empty()) {
      const auto scheme = crd.clientConfig.url.find("://");
      const auto slash =
          crd.clientConfig.url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
      if (slash != std::string::npos) {
        std::string path = crd.clientConfig.url.substr(slash);
        path = path.substr(0, path.find_first_of("?#"));
        if (path != "/") return path;
      }
    }
  return "/convert";
}

std::string expandPlaceholders(const std::string& text, const std::string& certDir, int port) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text.compare(i, 9, "{certdir}") == 0) {
      out += certDir;
      i += 9;
    } else if (text.compare(i, 6, "{port}") == 0) {
      out += std::to_string(port);
      i += 6;
    } else {
      out += text[i++];
    }
  }
  return out;
}

namespace {

// A port on 127.0.0.1 that nothing listens on now (the kernel's pick for port 0).
std::variant<int, std::string> freePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::string("socket: ") + std::strerror(errno);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  int port = 0;
  std::string error;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
    error = std::string("cannot pick a free port on 127.0.0.1: ") + std::strerror(errno);
  else
    port = ntohs(address.sin_port);
  ::close(fd);
  if (!error.empty()) return error;
  return port;
}

// convcheck's environment with `added` (NAME=VALUE) added or replacing the same names.
std::vector<std::string> webhookEnvironment(const std::vector<std::string>& added) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('=') + 1);
    if (std::none_of(added.begin(), added.end(),
                     [&](const std::string& a) { return a.rfind(name, 0) == 0; }))
      env.push_back(entry);
  }
  env.insert(env.end(), added.begin(), added.end());
  return env;
}

// Between fork and exec: default signal handling, its own process group (stopped as a whole,
// with whatever it starts), stdin from /dev/null, no other descriptor of convcheck's; errno to
// `reportFd` when exec fails.
[[noreturn]] void execWebhook(char** argv, char** envp, int outFd, int errFd, int reportFd,
                              pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(127);
  setpgid(0, 0);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int signo : {SIGTERM, SIGINT, SIGPIPE, SIGCHLD}) ::signal(signo, SIG_DFL);
  const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (devNull >= 0 && dup2(devNull, STDIN_FILENO) >= 0 && dup2(outFd, STDOUT_FILENO) >= 0 &&
      dup2(errFd, STDERR_FILENO) >= 0) {
    const int first = STDERR_FILENO + 1;
    if (reportFd > first) close_range(first, static_cast<unsigned>(reportFd) - 1, 0);
    close_range(static_cast<unsigned>(std::max(reportFd + 1, first)), ~0U, 0);
    execvpe(argv[0], argv, envp);
  }
  const int error = errno;
  (void)!write(reportFd, &error, sizeof error);
  _exit(127);
}

std::string describeStatus(int raw) {
  if (WIFEXITED(raw)) return fmt::format("exited with code {}", WEXITSTATUS(raw));
  if (WIFSIGNALED(raw))
    return fmt::format("killed by signal {} ({})", WTERMSIG(raw), strsignal(WTERMSIG(raw)));
  return "ended";
}

}  // namespace

std::variant<std::unique_ptr<WebhookProcess>, std::string> WebhookProcess::start(
    const WebhookLaunch& launch) {
  if (launch.argv.empty()) return std::string("no webhook command after --");
  std::unique_ptr<WebhookProcess> process(new WebhookProcess());
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      (fs::path(tmp && *tmp ? tmp : "/tmp") / "convcheck-webhook-XXXXXX").string();
  if (!mkdtemp(pattern.data()))
    return fmt::format("cannot create a temporary directory {}: {}", pattern, std::strerror(errno));
  process->dir_ = pattern;

  auto certs = makeServingCerts({launch.dnsNames, {"127.0.0.1"}, 7});
  if (auto* error = std::get_if<std::string>(&certs)) return "making certificates: " + *error;
  if (auto error = writeServingCerts(std::get<ServingCerts>(certs), process->certDir());
      !error.empty())
    return error;
  auto port = freePort();
  if (auto* error = std::get_if<std::string>(&port)) return *error;
  process->port_ = std::get<int>(port);
  for (const auto& arg : launch.argv)
    process->argv_.push_back(expandPlaceholders(arg, process->certDir(), process->port_));

  const auto openLog = [&](const char* name) {
    return ::open((process->dir_ / name).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  };
  const int outFd = openLog("stdout.log");
  const int errFd = openLog("stderr.log");
  int report[2] = {-1, -1};
  if (outFd < 0 || errFd < 0 || pipe2(report, O_CLOEXEC) != 0) {
    const std::string why = std::strerror(errno);
    for (int fd : {outFd, errFd, report[0], report[1]})
      if (fd >= 0) ::close(fd);
    return "cannot set up the webhook's output files: " + why;
  }
  std::vector<char*> argv;
  for (auto& arg : process->argv_) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> environment = webhookEnvironment(launch.environment);
  std::vector<char*> envp;
  for (auto& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  const pid_t parent = getpid();
  process->pid_ = fork();
  if (process->pid_ == 0) execWebhook(argv.data(), envp.data(), outFd, errFd, report[1], parent);
  const int forkErrno = errno;
  ::close(outFd);
  ::close(errFd);
  ::close(report[1]);
  if (process->pid_ < 0) {
    ::close(report[0]);
    return std::string("fork failed: ") + std::strerror(forkErrno);
  }
  setpgid(process->pid_, process->pid_);  // also here: no race with stop()
  int execErrno = 0;
  ssize_t got;
  do {
    got = ::read(report[0], &execErrno, sizeof execErrno);
  } while (got < 0 && errno == EINTR);
  ::close(report[0]);
  if (got > 0) {
    process->stopping_ = true;
    process->reap(true);
    return fmt::format("cannot execute {}: {}", process->argv_[0], std::strerror(execErrno));
  }
  return process;
}

WebhookProcess::~WebhookProcess() {
  stop(std::chrono::seconds(2));
  std::error_code ignored;
  if (!dir_.empty()) fs::remove_all(dir_, ignored);
}

std::string WebhookProcess::certDir() const { return (dir_ / "certs").string(); }
std::string WebhookProcess::caFile() const { return (dir_ / "certs" / kCaCertFile).string(); }

bool WebhookProcess::reap(bool block) {
  if (ended_) return true;
  if (pid_ <= 0) return true;
  int raw = 0;
  pid_t done;
  do {
    done = waitpid(pid_, &raw, block ? 0 : WNOHANG);
  } while (done < 0 && errno == EINTR);
  if (done != pid_) return false;
  ended_ = describeStatus(raw);
  return true;
}

std::string WebhookProcess::ended() {
  reap(false);
  return ended_.value_or("");
}

std::string WebhookProcess::stop(std::chrono::milliseconds grace) {
  if (pid_ <= 0 || stopping_) return "";
  stopping_ = true;
  if (reap(false)) return *ended_;  // it ended on its own
  ::kill(-pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (!reap(false) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (!ended_) {
    ::kill(-pid_, SIGKILL);
    reap(true);
  }
  return "";
}

std::string WebhookProcess::stderrTail(int lines) const {
  std::ifstream in(dir_ / "stderr.log", std::ios::binary);
  std::deque<std::string> tail;
  std::string line;
  while (std::getline(in, line)) {
    tail.push_back(line);
    if (static_cast<int>(tail.size()) > lines) tail.pop_front();
  }
  std::string out;
  for (const auto& l : tail) out += l + "\n";
  return out;
}

}  // namespace convcheck
