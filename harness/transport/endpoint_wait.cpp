#include "harness/transport/endpoint_wait.h"

#include <curl/curl.h>

#include <algorithm>
#include <memory>
#include <thread>

#include "harness/transport/https_client.h"
#include "harness/transport/url_parts.h"
#include "kube/go/duration.h"

namespace convcheck {
namespace {

using Clock = std::chrono::steady_clock;

struct EasyCleanup {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};

// One connection attempt within `budget`: "" when it succeeded, else why not.
std::string tryConnect(const std::string& url, const TlsOptions& tls,
                       std::chrono::milliseconds budget, bool loopback) {
  std::unique_ptr<CURL, EasyCleanup> handle(curl_easy_init());
  if (!handle) return "libcurl: curl_easy_init failed";
  CURL* h = handle.get();
  char errorBuffer[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_CONNECT_ONLY, 1L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errorBuffer);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::max<long long>(1, budget.count())));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(std::max<long long>(1, budget.count())));
  if (loopback) curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(h, CURLOPT_SSLVERSION, static_cast<long>(CURL_SSLVERSION_TLSv1_2));
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
  if (!tls.certFile.empty()) curl_easy_setopt(h, CURLOPT_SSLCERT, tls.certFile.c_str());
  if (!tls.keyFile.empty()) curl_easy_setopt(h, CURLOPT_SSLKEY, tls.keyFile.c_str());
  const CURLcode code = curl_easy_perform(h);
  if (code == CURLE_OK) return "";
  return errorBuffer[0] != '\0' ? std::string(errorBuffer) : curl_easy_strerror(code);
}

}  // namespace

EndpointWait waitForEndpoint(const std::string& url, const TlsOptions& tls,
                             std::chrono::milliseconds limit,
                             const std::function<bool()>& keepWaiting) {
  EndpointWait out;
  std::string whyNot;
  const auto parts = parseUrl(url, &whyNot);
  if (!parts) {
    out.lastError = whyNot;
    return out;
  }
  ensureCurlGlobalInit();
  const auto started = Clock::now();
  const auto deadline = started + limit;
  auto pause = std::chrono::milliseconds(100);
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    ++out.attempts;
    out.lastError = tryConnect(
        url, tls, std::clamp(left, std::chrono::milliseconds(1), std::chrono::milliseconds(2000)),
        parts->hostIsLoopback);
    out.ready = out.lastError.empty();
    const auto now = Clock::now();
    out.waited = std::chrono::duration_cast<std::chrono::milliseconds>(now - started);
    if (out.ready || now >= deadline) return out;
    if (keepWaiting && !keepWaiting()) return out;
    // The last attempt is made at the deadline.
    std::this_thread::sleep_for(std::min<Clock::duration>(pause, deadline - now));
    if (keepWaiting && !keepWaiting()) return out;
    pause = std::min(pause * 2, std::chrono::milliseconds(500));
  }
}

std::string describeWaitFailure(const std::string& url, const EndpointWait& wait,
                                std::chrono::milliseconds limit) {
  const bool https = url.rfind("https://", 0) == 0;
  return "Connect: the webhook did not " +
         std::string(https ? "answer TLS" : "accept connections") + " at " + url +
         " within --wait " + formatGoDuration(limit) + " (" + std::to_string(wait.attempts) +
         " attempt(s); last: " + wait.lastError +
         "; check that it starts, and listens on this host and port)";
}

}  // namespace convcheck
