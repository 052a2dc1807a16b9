#include "tests/harness/transport/test_https_server.h"

#include <netinet/in.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <stdexcept>

namespace convcheck::testing {
namespace {

std::string subjectCn(X509* cert) {
  char buffer[256] = {0};
  X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, buffer, sizeof buffer);
  return buffer;
}

}  // namespace

TestHttpsServer::TestHttpsServer(const ServerTls& tls, Handler handler) : tls_(true) {
  server_ = std::make_unique<httplib::SSLServer>([tls](SSL_CTX& ctx) {
    if (tls.allowWeakSignatures || tls.onlyLegacyTls) {
      SSL_CTX_set_security_level(&ctx, 0);
      SSL_CTX_set_cipher_list(&ctx, "DEFAULT:@SECLEVEL=0");
    }
    if (tls.onlyLegacyTls) {
      SSL_CTX_set_min_proto_version(&ctx, TLS1_VERSION);
      SSL_CTX_set_max_proto_version(&ctx, TLS1_1_VERSION);
    }
    if (SSL_CTX_use_certificate_chain_file(&ctx, tls.certFile.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(&ctx, tls.keyFile.c_str(), SSL_FILETYPE_PEM) != 1) {
      return false;
    }
    if (!tls.clientCaFile.empty()) {
      if (SSL_CTX_load_verify_locations(&ctx, tls.clientCaFile.c_str(), nullptr) != 1) {
        return false;
      }
      SSL_CTX_set_client_CA_list(&ctx, SSL_load_client_CA_file(tls.clientCaFile.c_str()));
      SSL_CTX_set_verify(&ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
    }
    return true;
  });
  if (!server_->is_valid()) throw std::runtime_error("test server: invalid TLS setup");
  start(std::move(handler));
}

TestHttpsServer::TestHttpsServer(Handler handler) : tls_(false) {
  server_ = std::make_unique<httplib::Server>();
  start(std::move(handler));
}

void TestHttpsServer::start(Handler handler) {
  auto record = [this, handler = std::move(handler)](const httplib::Request& request,
                                                     httplib::Response& response) {
    SeenRequest seen;
    seen.method = request.method;
    seen.target = request.target;
    seen.path = request.path;
    seen.version = request.version;
    seen.headers = request.headers;
    seen.body = request.body;
    seen.remotePort = request.remote_port;
    if (request.ssl != nullptr) {
      if (const char* sni = SSL_get_servername(request.ssl, TLSEXT_NAMETYPE_host_name)) {
        seen.sni = sni;
      }
      if (X509* cert = SSL_get1_peer_certificate(request.ssl)) {
        seen.clientCertCn = subjectCn(cert);
        X509_free(cert);
      }
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      requests_.push_back(std::move(seen));
    }
    handler(request, response);
  };
  server_->Post(".*", record);
  server_->Get(".*", record);  // a POST redirected with 301/302/303 arrives as a GET
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("test server: cannot bind 127.0.0.1");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  while (!server_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

TestHttpsServer::~TestHttpsServer() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  shutdown_.notify_all();
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string TestHttpsServer::url(const std::string& path) const {
  return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_) + path;
}

std::vector<SeenRequest> TestHttpsServer::requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return requests_;
}

void TestHttpsServer::holdUntilShutdown(std::chrono::milliseconds limit) {
  std::unique_lock<std::mutex> lock(mutex_);
  shutdown_.wait_for(lock, limit, [this] { return stopping_; });
}

Handler answerJson(std::string body) {
  return [body = std::move(body)](const httplib::Request&, httplib::Response& response) {
    response.set_content(body, "application/json");
  };
}

std::string gzipCompress(const std::string& text) {
  z_stream stream{};
  if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    throw std::runtime_error("deflateInit2 failed");
  }
  std::string out(deflateBound(&stream, text.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate failed");
  return out;
}

int closedPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(fd);
    throw std::runtime_error("closedPort: cannot bind 127.0.0.1");
  }
  ::close(fd);
  return ntohs(address.sin_port);
}

}  // namespace convcheck::testing
