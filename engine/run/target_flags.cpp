#include "engine/run/target_flags.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/run/target_kinds.h"
#include "kube/go/duration.h"

namespace convcheck {

namespace {

// An error naming the flag and the file when `path` cannot be opened for reading, else "".
std::string unreadable(const char* flag, const std::string& path) {
  if (path.empty()) return "";
  errno = 0;
  std::ifstream file(path, std::ios::binary);
  if (file && std::filesystem::is_regular_file(path)) return "";
  const int why = errno;
  return fmt::format("{} {}: cannot read: {}", flag, path,
                     std::filesystem::is_directory(path) ? "a directory"
                     : why != 0                          ? std::strerror(why)
                                                         : "not a file");
}

}  // namespace

std::string targetUrl(const TargetFlags& f) {
  for (const auto& kind : targetKindOptions())
    if (auto given = f.kindOptions.find(kind.option);
        given != f.kindOptions.end() && !given->second.empty())
      return kind.scheme + given->second;
  return f.url;
}

std::string applyTargetFlags(const TargetFlags& f, TransportOptions& transport) {
  std::vector<std::string> given;
  if (!f.url.empty()) given.push_back("--url");
  for (const auto& [option, value] : f.kindOptions)
    if (!value.empty()) given.push_back(option);
  if (given.size() > 1) return fmt::format("{} and {}: choose one target", given[0], given[1]);
  const std::string url = targetUrl(f);
  if (!url.empty())
    if (auto error = checkTargetUrl(url, given.front()); !error.empty()) return error;
  for (auto [flag, path] : {std::pair{"--ca-file", &f.caFile}, std::pair{"--cert", &f.cert},
                            std::pair{"--key", &f.key}})
    if (auto error = unreadable(flag, *path); !error.empty()) return error;
  if (!f.caFile.empty()) transport.tls.caFile = f.caFile;
  if (!f.cert.empty()) transport.tls.certFile = f.cert;
  if (!f.key.empty()) transport.tls.keyFile = f.key;
  if (!f.tlsServerName.empty()) transport.tls.serverName = f.tlsServerName;
  if (f.insecureSkipTlsVerify) transport.tls.insecureSkipVerify = true;
  if (!f.timeout.empty()) {
    auto timeout = parseDuration(f.timeout);
    if (!timeout || timeout->count() <= 0)
      return fmt::format("--timeout {}: expected a duration such as 30s or 500ms", f.timeout);
    transport.timeout = *timeout;
  }
  if (transport.tls.certFile.empty() != transport.tls.keyFile.empty())
    return "--cert and --key go together";
  return "";
}

std::string readWait(const TargetFlags& f, std::chrono::milliseconds& wait) {
  wait = std::chrono::milliseconds(0);
  if (f.wait.empty()) return "";
  auto parsed = parseDuration(f.wait);
  if (!parsed || parsed->count() <= 0)
    return fmt::format("--wait {}: expected a duration such as 30s or 2m", f.wait);
  wait = *parsed;
  return "";
}

std::string oneWayToReach(bool url, bool command, bool serviceProxy, bool portForward) {
  std::vector<std::string> given;
  if (url) given.push_back("--url");
  if (command) given.push_back("-- COMMAND");
  if (serviceProxy) given.push_back("--service-proxy");
  if (portForward) given.push_back("--port-forward");
  // --url may name the port of a webhook started with -- COMMAND.
  if (given.size() < 2 || (!serviceProxy && !portForward)) return "";
  return fmt::format("{} and {}: choose one way to reach the webhook", given[0], given[1]);
}

}  // namespace convcheck
