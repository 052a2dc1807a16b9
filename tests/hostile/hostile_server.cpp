#include "tests/hostile/hostile_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <memory>
#include <thread>

#include <openssl/err.h>

namespace convcheck::hostile {
namespace {

constexpr int kMaxConnections = 64;

struct CtxDeleter {
  void operator()(SSL_CTX* ctx) const { SSL_CTX_free(ctx); }
};

}  // namespace

int runHostileServer(const ServerOptions& options, std::ostream& out, std::ostream& err) {
  std::signal(SIGPIPE, SIG_IGN);
  std::unique_ptr<SSL_CTX, CtxDeleter> ctx;
  if (!options.certFile.empty()) {
    ctx.reset(SSL_CTX_new(TLS_server_method()));
    if (!ctx || SSL_CTX_use_certificate_chain_file(ctx.get(), options.certFile.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx.get(), options.keyFile.c_str(), SSL_FILETYPE_PEM) != 1) {
      err << "hostile-webhook: cannot load " << options.certFile << " / " << options.keyFile
          << "\n";
      return 1;
    }
    SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
  }

  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int one = 1;
  ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(options.port));
  socklen_t length = sizeof address;
  if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      ::listen(listener, 128) != 0 ||
      ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    err << "hostile-webhook: cannot listen on 127.0.0.1:" << options.port << "\n";
    return 1;
  }

  auto state = std::make_shared<ServerState>();
  state->tls = ctx != nullptr;
  prepareMode(options.mode, *state);
  auto active = std::make_shared<std::atomic<int>>(0);

  out << "listening on " << (state->tls ? "https" : "http")
      << "://127.0.0.1:" << ntohs(address.sin_port) << std::endl;
  out << "mode " << modeName(options.mode) << std::endl;

  while (true) {
    const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (active->load() >= kMaxConnections) {
      ::close(fd);
      continue;
    }
    ++*active;
    std::thread([fd, mode = options.mode, ctx = ctx.get(), state, active]() {
      {
        Connection connection(fd, ctx);
        serveConnection(mode, connection, *state);
      }
      ERR_clear_error();
      --*active;
    }).detach();
  }
}

}  // namespace convcheck::hostile
