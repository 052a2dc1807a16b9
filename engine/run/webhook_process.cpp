#include "engine/run/webhook_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>

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
  if (outFd < 0 || errFd < 0) {
    const std::string why = std::strerror(errno);
    for (int fd : {outFd, errFd})
      if (fd >= 0) ::close(fd);
    return "cannot set up the webhook's output files: " + why;
  }
  auto started = ChildProcess::start({process->argv_, launch.environment, "", outFd, errFd});
  ::close(outFd);
  ::close(errFd);
  if (auto* error = std::get_if<std::string>(&started)) return *error;
  process->child_.emplace(std::move(std::get<ChildProcess>(started)));
  return process;
}

WebhookProcess::~WebhookProcess() {
  stop(std::chrono::seconds(2));
  std::error_code ignored;
  if (!dir_.empty()) fs::remove_all(dir_, ignored);
}

std::string WebhookProcess::certDir() const { return (dir_ / "certs").string(); }
std::string WebhookProcess::caFile() const { return (dir_ / "certs" / kCaCertFile).string(); }

std::string WebhookProcess::ended() {
  if (!child_) return "";
  const auto status = child_->ended();
  return status ? status->describe() : "";
}

std::string WebhookProcess::stop(std::chrono::milliseconds grace) {
  if (!child_ || stopping_) return "";
  stopping_ = true;
  const std::string before = ended();  // it ended on its own
  child_->stop(grace);
  return before;
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
