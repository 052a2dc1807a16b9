#include "harness/transport/url_parts.h"

#include <arpa/inet.h>
#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>

namespace convcheck {
namespace {

struct UrlHandleDeleter {
  void operator()(CURLU* handle) const { curl_url_cleanup(handle); }
};
using UrlHandle = std::unique_ptr<CURLU, UrlHandleDeleter>;

std::optional<std::string> part(CURLU* handle, CURLUPart which, unsigned flags = 0) {
  char* text = nullptr;
  if (curl_url_get(handle, which, &text, flags) != CURLUE_OK || text == nullptr) {
    return std::nullopt;
  }
  std::string value(text);
  curl_free(text);
  return value;
}

std::string unbracket(std::string host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    return host.substr(1, host.size() - 2);
  }
  return host;
}

}  // namespace

std::optional<UrlParts> parseUrl(const std::string& url, std::string* whyNot) {
  const auto fail = [&](const std::string& reason) -> std::optional<UrlParts> {
    if (whyNot != nullptr) *whyNot = "invalid URL \"" + url + "\": " + reason;
    return std::nullopt;
  };
  UrlHandle handle(curl_url());
  if (!handle) return fail("out of memory");
  const CURLUcode code = curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0);
  if (code != CURLUE_OK) return fail(curl_url_strerror(code));
  UrlParts parts;
  parts.scheme = part(handle.get(), CURLUPART_SCHEME).value_or("");
  std::transform(parts.scheme.begin(), parts.scheme.end(), parts.scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (parts.scheme != "https" && parts.scheme != "http") {
    return fail("scheme must be https:// (or http:// for local development)");
  }
  parts.host = unbracket(part(handle.get(), CURLUPART_HOST).value_or(""));
  if (parts.host.empty()) return fail("no host");
  const auto port = part(handle.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT);
  if (!port) return fail("no port");
  parts.port = std::stoi(*port);

  unsigned char address[16];
  if (inet_pton(AF_INET, parts.host.c_str(), address) == 1) {
    parts.hostIsIp = true;
    parts.hostIsLoopback = address[0] == 127;
  } else if (inet_pton(AF_INET6, parts.host.c_str(), address) == 1) {
    parts.hostIsIp = true;
    static constexpr unsigned char kLoopback6[16] = {0, 0, 0, 0, 0, 0, 0, 0,
                                                     0, 0, 0, 0, 0, 0, 0, 1};
    parts.hostIsLoopback = std::equal(address, address + 16, kLoopback6);
  } else {
    std::string lower = parts.host;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    parts.hostIsLoopback = lower == "localhost" || lower == "localhost.";
  }
  return parts;
}

std::optional<std::string> replaceUrlHost(const std::string& url, const std::string& host) {
  UrlHandle handle(curl_url());
  if (!handle || curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) {
    return std::nullopt;
  }
  unsigned char address[16];
  const std::string written =
      inet_pton(AF_INET6, host.c_str(), address) == 1 ? "[" + host + "]" : host;
  if (curl_url_set(handle.get(), CURLUPART_HOST, written.c_str(), 0) != CURLUE_OK) {
    return std::nullopt;
  }
  return part(handle.get(), CURLUPART_URL);
}

std::optional<std::string> withPathIfNone(const std::string& url, const std::string& path) {
  UrlHandle handle(curl_url());
  if (!handle || curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) {
    return std::nullopt;
  }
  const auto current = part(handle.get(), CURLUPART_PATH);
  if (current && !current->empty() && *current != "/") return url;
  const std::string rooted = !path.empty() && path.front() == '/' ? path : "/" + path;
  if (curl_url_set(handle.get(), CURLUPART_PATH, rooted.c_str(), 0) != CURLUE_OK) {
    return std::nullopt;
  }
  return part(handle.get(), CURLUPART_URL);
}

std::string hostPort(const std::string& host, int port) {
  const bool ipv6 = host.find(':') != std::string::npos;
  return (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

}  // namespace convcheck
