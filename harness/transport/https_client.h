// POSTs request bodies to a webhook exactly as kube-apiserver's webhook client does (headers,
// ?timeout=, TLS rules, HTTP/1.1), keeping one connection across calls. Used by the run loop.
#pragma once

#include <memory>
#include <string>

#include "harness/transport/transport_options.h"
#include "kube/apiserver/http_types.h"

namespace convcheck {

// Initialises libcurl once per process (curl_global_init); throws if it fails. Every user of
// libcurl handles calls it first.
void ensureCurlGlobalInit();

// The URL actually requested: `url` plus "timeout=<Go duration>" (client-go's Request.URL()),
// appended with '?' or '&', when options.appendTimeoutQuery and options.timeout > 0.
std::string requestUrl(const std::string& url, const TransportOptions& options);

// One libcurl easy handle, reused across post() calls so the TCP/TLS connection is kept alive as
// Go's transport keeps it. Not thread-safe: use one client per thread.
//
// Each request: POST, "Content-Type: application/json", "Accept: application/json, */*",
// User-Agent from options, "Accept-Encoding: gzip" with transparent decoding, no
// "Expect: 100-continue", HTTP/1.1 unless options.http2 (then h2 may be negotiated via ALPN),
// TLS >= 1.2 with verification on (CA: tls.caFile, else tls.caPem, else system roots; system
// roots are not added when a CA is given, as in Go), optional client certificate.
// tls.serverName routes the request to the URL's host:port while the certificate name, SNI and
// Host header are serverName (the `<svc>.<ns>.svc` case).
// Redirects are followed as Go's http.Client does by default (kube-apiserver's webhook client
// keeps that policy): 307/308 repeat the POST with its body, 301/302/303 turn it into a GET
// without body, at most 9 are followed (the 10th is a Protocol failure, "stopped after 10
// redirects"), only to http(s) URLs, all within the one timeout. A 3xx without Location is
// returned as the response.
// post() never throws for network conditions; failures come back as HttpResult::transportError
// and a transportErrorKind (Connect, Tls, Timeout, TooLarge, Protocol or Other).
// TooLarge: beyond options.maxResponseBytes (after gzip decoding), holding more JSON values
// than options.maxResponseValues and kResponseValuesPerRequestValue times the request's, or
// nested deeper than options.maxResponseDepth.
// Constructing a client makes SIGPIPE ignored for the process (see sigpipe.h).
class HttpsClient {
 public:
  explicit HttpsClient(TransportOptions options);
  ~HttpsClient();
  HttpsClient(HttpsClient&&) noexcept;
  HttpsClient& operator=(HttpsClient&&) noexcept;
  HttpsClient(const HttpsClient&) = delete;
  HttpsClient& operator=(const HttpsClient&) = delete;

  HttpResult post(const std::string& url, const std::string& body);

  const TransportOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace convcheck
