// The parts of a webhook URL the transport needs (scheme, host, port), host and path substitution.
// Used by HttpsClient (serverName routing), inspectServerTls (where to connect, what to verify)
// and the target resolution (a service reference's path).
#pragma once

#include <optional>
#include <string>

namespace convcheck {

struct UrlParts {
  std::string scheme;           // "http" or "https", lowercase
  std::string host;             // as written; IPv6 literals without brackets
  int port = 0;                 // explicit, else the scheme's default (443 / 80)
  bool hostIsIp = false;        // IPv4 or IPv6 literal
  bool hostIsLoopback = false;  // localhost, 127.0.0.0/8 or ::1
};

// Parses an absolute http:// or https:// URL. On failure returns nullopt and a one-line reason
// naming the URL in `whyNot`.
std::optional<UrlParts> parseUrl(const std::string& url, std::string* whyNot = nullptr);

// `url` with its host replaced by `host` (port, path and query kept), or nullopt if either is
// malformed. IPv6 hosts are bracketed as needed.
std::optional<std::string> replaceUrlHost(const std::string& url, const std::string& host);

// `url` with its path set to `path` when it has none (no path, or only "/"), else `url` unchanged;
// nullopt if either is malformed. The query is kept.
std::optional<std::string> withPathIfNone(const std::string& url, const std::string& path);

// "host:port" with IPv6 literals bracketed.
std::string hostPort(const std::string& host, int port);

}  // namespace convcheck
