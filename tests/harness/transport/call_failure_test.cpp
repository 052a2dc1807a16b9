// A failed call is read one way everywhere (call_failure.h), and the client classifies a webhook
// that closes the connection on a request the same way whatever the timing: while the request is
// still being sent or after, on a new connection or a reused one (a raw TLS server that resets the
// connection after reading part of the request, over 127.0.0.1), and a refused client certificate
// as TLS whether the client read the server's alert or not.
#include "harness/transport/call_failure.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "harness/transport/https_client.h"
#include "tests/harness/transport/test_pki.h"

namespace convcheck {
namespace {

using testing::TransportPki;

TEST(CallFailure, EveryFailedCallEitherReachedTheWebhookOrNot) {
  for (auto kind :
       {TransportErrorKind::Connect, TransportErrorKind::Tls, TransportErrorKind::Other})
    EXPECT_TRUE(webhookNotReached(kind) && !webhookTookTheCall(kind))
        << transportErrorKindName(kind);
  for (auto kind :
       {TransportErrorKind::Timeout, TransportErrorKind::TooLarge, TransportErrorKind::Protocol})
    EXPECT_TRUE(webhookTookTheCall(kind) && !webhookNotReached(kind))
        << transportErrorKindName(kind);
  EXPECT_FALSE(webhookNotReached(TransportErrorKind::None));
  EXPECT_FALSE(webhookTookTheCall(TransportErrorKind::None));
}

TEST(CallFailure, OnlyAConnectionClosedByTheWebhookMayBeARefusalForSize) {
  EXPECT_TRUE(closedBeforeAnswering(TransportErrorKind::Protocol));
  for (auto kind :
       {TransportErrorKind::Connect, TransportErrorKind::Tls, TransportErrorKind::Timeout,
        TransportErrorKind::TooLarge, TransportErrorKind::Other})
    EXPECT_FALSE(closedBeforeAnswering(kind)) << transportErrorKindName(kind);
}

// A TLS server on 127.0.0.1 that completes the handshake, reads `readBefore` bytes of each
// request and resets the connection (as a web framework capping request bodies may).
class ResettingTlsServer {
 public:
  // `requireClientCertificate`: the handshake fails without one (and the connection is reset).
  explicit ResettingTlsServer(std::size_t readBefore, bool requireClientCertificate = false)
      : readBefore_(readBefore) {
    ctx_ = SSL_CTX_new(TLS_server_method());
    SSL_CTX_use_certificate_chain_file(ctx_, TransportPki::instance().server.cert.c_str());
    SSL_CTX_use_PrivateKey_file(ctx_, TransportPki::instance().server.key.c_str(),
                                SSL_FILETYPE_PEM);
    if (requireClientCertificate) {
      SSL_CTX_load_verify_locations(ctx_, TransportPki::instance().caFile.c_str(), nullptr);
      SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
    }
    listener_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    socklen_t length = sizeof address;
    getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    listen(listener_, 16);
    thread_ = std::thread([this] { serve(); });
  }
  ~ResettingTlsServer() {
    stopping_ = true;
    shutdown(listener_, SHUT_RDWR);
    thread_.join();
    close(listener_);
    SSL_CTX_free(ctx_);
  }
  std::string url() const { return "https://127.0.0.1:" + std::to_string(port_) + "/convert"; }
  int connections() const { return connections_; }

 private:
  void serve() {
    for (;;) {
      const int fd = accept(listener_, nullptr, nullptr);
      if (fd < 0 || stopping_) {
        if (fd >= 0) close(fd);
        return;
      }
      ++connections_;
      SSL* ssl = SSL_new(ctx_);
      SSL_set_fd(ssl, fd);
      if (SSL_accept(ssl) == 1) {
        char buffer[16384];
        std::size_t read = 0;
        for (int n; read < readBefore_ && (n = SSL_read(ssl, buffer, sizeof buffer)) > 0;)
          read += static_cast<std::size_t>(n);
      }
      const linger reset{1, 0};  // close with a RST, unread data and all
      setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
      SSL_free(ssl);
      close(fd);
    }
  }

  std::size_t readBefore_;
  SSL_CTX* ctx_ = nullptr;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

TEST(CallFailure, AConnectionResetMidRequestIsAProtocolFailureWhateverTheTiming) {
  ResettingTlsServer server(64 * 1024);
  TransportOptions options;
  options.tls.caFile = TransportPki::instance().caFile;
  HttpsClient client(options);
  // 8 MB: reset while the client is still sending, on a new connection each time (the reset one
  // cannot be reused). 100 kB: the whole request may be sent before the reset arrives.
  for (std::size_t size : {std::size_t{8} << 20, std::size_t{100} << 10, std::size_t{8} << 20}) {
    const HttpResult result = client.post(server.url(), std::string(size, ' '));
    EXPECT_EQ(result.transportErrorKind, TransportErrorKind::Protocol)
        << size << " bytes: " << result.transportError;
    EXPECT_NE(result.transportError.find("the connection closed before any answer"),
              std::string::npos)
        << result.transportError;
  }
  EXPECT_GE(server.connections(), 3);
}

// A server that requires a client certificate ends the connection after the handshake; the
// client may read its alert or (still sending) find the connection closed. Either way the
// certificate request in the handshake makes it a TLS failure: nothing reached the webhook.
TEST(CallFailure, AClientCertificateRefusalIsATlsFailureWhateverTheTiming) {
  ResettingTlsServer server(64 * 1024, /*requireClientCertificate=*/true);
  TransportOptions options;
  options.tls.caFile = TransportPki::instance().caFile;
  HttpsClient client(options);
  for (std::size_t size : {std::size_t{2}, std::size_t{8} << 20, std::size_t{2}}) {
    const HttpResult result = client.post(server.url(), std::string(size, ' '));
    EXPECT_EQ(result.transportErrorKind, TransportErrorKind::Tls)
        << size << " bytes: " << result.transportError;
    EXPECT_TRUE(webhookNotReached(result.transportErrorKind));
    EXPECT_NE(result.transportError.find("check --cert/--key"), std::string::npos)
        << result.transportError;
  }
}

}  // namespace
}  // namespace convcheck
