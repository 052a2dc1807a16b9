#include "harness/cluster/kubectl.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "harness/cluster/kubectl_process.h"

namespace convcheck {

namespace {

constexpr std::size_t kMaxOutputBytes = 512u << 20;

struct Finished {
  int exitCode = -1;  // -1: killed by a signal
  std::string out, err;
};

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
  auto spawned = spawnKubectl(access, args, outPipe[1], errPipe[1]);
  close(outPipe[1]);
  close(errPipe[1]);
  if (auto* error = std::get_if<std::string>(&spawned)) {
    close(outPipe[0]);
    close(errPipe[0]);
    return *error;
  }
  ChildProcess& kubectl = std::get<ChildProcess>(spawned);
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
  const ExitStatus status = kubectl.wait();
  done.exitCode = status.exited ? status.code : -1;
  if (done.out.size() >= kMaxOutputBytes)
    return fmt::format("kubectl wrote more than {} MiB", kMaxOutputBytes >> 20);
  return done;
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
                                               : trimmedKubectlText(done.err)));
  return RawGet(std::in_place_index<0>, std::move(done.out));
}

std::variant<std::unique_ptr<KubectlProxy>, std::string> KubectlProxy::start(
    const ClusterAccess& access, const std::string& acceptPaths) {
  auto started = BackgroundKubectl::start(
      access, {"proxy", "--address=127.0.0.1", "--port=0", "--accept-paths=" + acceptPaths,
               "--reject-methods=^(PUT|PATCH|DELETE)$"});
  if (auto* error = std::get_if<std::string>(&started)) return "kubectl proxy: " + *error;
  std::unique_ptr<KubectlProxy> proxy(new KubectlProxy());
  proxy->process_ = std::move(std::get<std::unique_ptr<BackgroundKubectl>>(started));
  if (auto port = proxy->process_->awaitPort("Starting to serve on 127.0.0.1:", "",
                                             std::chrono::seconds(30))) {
    proxy->baseUrl_ = "http://127.0.0.1:" + *port;
    return proxy;
  }
  if (proxy->process_->exited())
    return fmt::format("kubectl proxy ended before serving: {}", proxy->process_->message());
  return fmt::format("kubectl proxy did not start serving within 30 s: {}",
                     proxy->process_->message());
}

KubectlProxy::~KubectlProxy() = default;

}  // namespace convcheck
