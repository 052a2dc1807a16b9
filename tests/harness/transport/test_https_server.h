// An in-process HTTPS (or plain HTTP) server on 127.0.0.1, port chosen by the kernel, that
// records every request it sees. Used by the transport tests as the webhook under test.
#pragma once

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace convcheck::testing {

struct SeenRequest {
  std::string method;
  std::string target;  // request-target as sent: path and query
  std::string path;
  std::string version;  // "HTTP/1.1"
  httplib::Headers headers;
  std::string body;
  int remotePort = -1;       // distinguishes connections
  std::string sni;           // TLS server name indication, empty if none
  std::string clientCertCn;  // CN of the client certificate, empty if none
};

struct ServerTls {
  std::string certFile;
  std::string keyFile;
  std::string clientCaFile;          // non-empty: require a client certificate signed by this CA
  bool onlyLegacyTls = false;        // offer only TLS 1.0/1.1
  bool allowWeakSignatures = false;  // security level 0 (to serve a SHA-1 signed certificate)
};

// Serving `certFile`/`keyFile`, TLS >= 1.2, no client certificate required.
inline ServerTls servingCert(const std::string& certFile, const std::string& keyFile) {
  ServerTls tls;
  tls.certFile = certFile;
  tls.keyFile = keyFile;
  return tls;
}

using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

class TestHttpsServer {
 public:
  // HTTPS server answering every POST (and GET) with `handler`.
  TestHttpsServer(const ServerTls& tls, Handler handler);
  // Plain HTTP server answering every POST with `handler`.
  explicit TestHttpsServer(Handler handler);
  ~TestHttpsServer();
  TestHttpsServer(const TestHttpsServer&) = delete;
  TestHttpsServer& operator=(const TestHttpsServer&) = delete;

  int port() const { return port_; }
  // "https://127.0.0.1:<port><path>" (or http://).
  std::string url(const std::string& path = "/convert") const;
  std::vector<SeenRequest> requests() const;

  // For slow handlers: blocks until the server shuts down or `limit` passes.
  void holdUntilShutdown(std::chrono::milliseconds limit);

 private:
  void start(Handler handler);

  std::unique_ptr<httplib::Server> server_;
  bool tls_ = false;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable shutdown_;
  bool stopping_ = false;
  std::vector<SeenRequest> requests_;
};

// Answers with `body` as application/json.
Handler answerJson(std::string body);

// gzip-compresses `text` (RFC 1952), for Content-Encoding: gzip answers.
std::string gzipCompress(const std::string& text);

// A 127.0.0.1 port where nothing listens (bound, then closed).
int closedPort();

}  // namespace convcheck::testing
