#include "harness/transport/tls_inspect.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <memory>
#include <optional>
#include <utility>

#include "harness/transport/sigpipe.h"
#include "harness/transport/url_parts.h"
#include "kube/go/go_x509.h"

namespace convcheck {
namespace {

using Clock = std::chrono::steady_clock;

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
void freeX509Stack(STACK_OF(X509) * stack) { sk_X509_pop_free(stack, X509_free); }
using SslCtxPtr = std::unique_ptr<SSL_CTX, Deleter<SSL_CTX, SSL_CTX_free>>;
using SslPtr = std::unique_ptr<SSL, Deleter<SSL, SSL_free>>;
using StorePtr = std::unique_ptr<X509_STORE, Deleter<X509_STORE, X509_STORE_free>>;
using StoreCtxPtr = std::unique_ptr<X509_STORE_CTX, Deleter<X509_STORE_CTX, X509_STORE_CTX_free>>;
using ChainPtr = std::unique_ptr<STACK_OF(X509), Deleter<STACK_OF(X509), freeX509Stack>>;

class Socket {
 public:
  Socket() = default;
  explicit Socket(int fd) : fd_(fd) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(Socket&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Socket& operator=(Socket&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

int remainingMs(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

// Waits for `events` on fd until the deadline; false on timeout.
bool waitFor(int fd, short events, Clock::time_point deadline) {
  while (true) {
    pollfd p{fd, events, 0};
    const int ready = ::poll(&p, 1, remainingMs(deadline));
    if (ready > 0) return true;
    if (ready == 0) return false;
    if (errno != EINTR) return true;  // let the following call report the error
  }
}

std::optional<Socket> connectTcp(const UrlParts& url, Clock::time_point deadline,
                                 std::string& error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(url.port);
  if (const int rc = ::getaddrinfo(url.host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    error = "cannot resolve " + url.host + ": " + gai_strerror(rc);
    return std::nullopt;
  }
  std::unique_ptr<addrinfo, Deleter<addrinfo, freeaddrinfo>> addresses(found);
  error = "no address for " + url.host;
  for (const addrinfo* a = addresses.get(); a != nullptr; a = a->ai_next) {
    Socket socket(
        ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol));
    if (socket.fd() < 0) {
      error = std::string("socket: ") + std::strerror(errno);
      continue;
    }
    if (::connect(socket.fd(), a->ai_addr, a->ai_addrlen) == 0) return socket;
    if (errno != EINPROGRESS) {
      error = "connect to " + hostPort(url.host, url.port) + ": " + std::strerror(errno);
      continue;
    }
    if (!waitFor(socket.fd(), POLLOUT, deadline)) {
      error = "connect to " + hostPort(url.host, url.port) + ": timed out";
      return std::nullopt;
    }
    int soError = 0;
    socklen_t length = sizeof soError;
    ::getsockopt(socket.fd(), SOL_SOCKET, SO_ERROR, &soError, &length);
    if (soError == 0) return socket;
    error = "connect to " + hostPort(url.host, url.port) + ": " + std::strerror(soError);
  }
  return std::nullopt;
}

std::string opensslErrors() {
  std::string text;
  while (const unsigned long code = ERR_get_error()) {
    char buffer[256];
    ERR_error_string_n(code, buffer, sizeof buffer);
    if (!text.empty()) text += "; ";
    text += buffer;
  }
  return text;
}

struct Handshake {
  bool completed = false;
  bool timedOut = false;
  bool connectFailed = false;
  std::string error;
  std::string protocol;
  ChainPtr peerChain;  // leaf first
};

Handshake handshake(const UrlParts& url, const std::string& sniName, const TlsOptions& tls,
                    bool legacyVersions, Clock::time_point deadline) {
  Handshake result;
  ERR_clear_error();
  SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
  if (!ctx) {
    result.error = "OpenSSL: " + opensslErrors();
    return result;
  }
  if (legacyVersions) {
    SSL_CTX_set_security_level(ctx.get(), 0);
    SSL_CTX_set_cipher_list(ctx.get(), "DEFAULT:@SECLEVEL=0");
    SSL_CTX_set_min_proto_version(ctx.get(), TLS1_VERSION);
    SSL_CTX_set_max_proto_version(ctx.get(), TLS1_1_VERSION);
  } else {
    SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
  }
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_NONE, nullptr);
  static constexpr unsigned char kAlpn[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
  SSL_CTX_set_alpn_protos(ctx.get(), kAlpn, sizeof kAlpn);
  if (!tls.certFile.empty()) {
    const std::string keyFile = tls.keyFile.empty() ? tls.certFile : tls.keyFile;
    if (SSL_CTX_use_certificate_chain_file(ctx.get(), tls.certFile.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx.get(), keyFile.c_str(), SSL_FILETYPE_PEM) != 1) {
      result.error = "cannot load client certificate " + tls.certFile + " / key " + keyFile + ": " +
                     opensslErrors();
      return result;
    }
  }

  ignoreSigpipe();
  auto socket = connectTcp(url, deadline, result.error);
  if (!socket) {
    result.connectFailed = true;
    result.timedOut = result.error.find("timed out") != std::string::npos;
    return result;
  }
  SslPtr ssl(SSL_new(ctx.get()));
  SSL_set_fd(ssl.get(), socket->fd());
  unsigned char scratch[16];
  const bool sniIsIp = inet_pton(AF_INET, sniName.c_str(), scratch) == 1 ||
                       inet_pton(AF_INET6, sniName.c_str(), scratch) == 1;
  if (!sniIsIp) SSL_set_tlsext_host_name(ssl.get(), sniName.c_str());

  while (true) {
    ERR_clear_error();
    const int rc = SSL_connect(ssl.get());
    if (rc == 1) break;
    const int why = SSL_get_error(ssl.get(), rc);
    if (why == SSL_ERROR_WANT_READ || why == SSL_ERROR_WANT_WRITE) {
      if (!waitFor(socket->fd(), why == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline)) {
        result.timedOut = true;
        result.error = "TLS handshake with " + hostPort(url.host, url.port) + " timed out";
        return result;
      }
      continue;
    }
    std::string detail = opensslErrors();
    if (detail.empty()) {
      detail = why == SSL_ERROR_SYSCALL ? std::string("connection closed by the server")
                                        : "SSL error " + std::to_string(why);
    }
    result.error = "TLS handshake with " + hostPort(url.host, url.port) + " failed: " + detail;
    return result;
  }
  result.completed = true;
  result.protocol = SSL_get_version(ssl.get());
  if (STACK_OF(X509)* chain = SSL_get_peer_cert_chain(ssl.get())) {
    result.peerChain.reset(X509_chain_up_ref(chain));
  }
  SSL_shutdown(ssl.get());  // best effort close_notify; the socket closes regardless
  return result;
}

std::string rfc3339(const ASN1_TIME* time) {
  std::tm tm{};
  if (time == nullptr || ASN1_TIME_to_tm(time, &tm) != 1) return "";
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string nowRfc3339() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string commonName(const X509* cert) {
  const X509_NAME* subject = X509_get_subject_name(cert);
  const int index = X509_NAME_get_index_by_NID(subject, NID_commonName, -1);
  if (index < 0) return "";
  const ASN1_STRING* data = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, index));
  unsigned char* utf8 = nullptr;
  const int length = ASN1_STRING_to_UTF8(&utf8, data);
  if (length < 0) return "";
  std::string name(reinterpret_cast<char*>(utf8), static_cast<std::size_t>(length));
  OPENSSL_free(utf8);
  return name;
}

CertificateNames certificateNames(X509* cert) {
  CertificateNames names;
  names.commonName = commonName(cert);
  names.hasSanExtension = X509_get_ext_by_NID(cert, NID_subject_alt_name, -1) >= 0;
  auto* general =
      static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
  if (general == nullptr) return names;
  for (int i = 0; i < sk_GENERAL_NAME_num(general); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(general, i);
    if (name->type == GEN_DNS) {
      const ASN1_STRING* dns = name->d.dNSName;
      names.dnsNames.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(dns)),
                                  static_cast<std::size_t>(ASN1_STRING_length(dns)));
    } else if (name->type == GEN_IPADD) {
      const ASN1_OCTET_STRING* ip = name->d.iPAddress;
      char text[INET6_ADDRSTRLEN] = {0};
      const int length = ASN1_STRING_length(ip);
      const unsigned char* bytes = ASN1_STRING_get0_data(ip);
      if (length == 4) {
        inet_ntop(AF_INET, bytes, text, sizeof text);
      } else if (length == 16) {
        inet_ntop(AF_INET6, bytes, text, sizeof text);
      }
      if (text[0] != '\0') names.ipAddresses.emplace_back(text);
    }
  }
  GENERAL_NAMES_free(general);
  return names;
}

// Go's validity check: "current time X is before/after Y", or nullopt when valid now.
std::optional<std::string> validityError(const X509* cert) {
  if (X509_cmp_current_time(X509_get0_notBefore(cert)) > 0) {
    return "x509: certificate has expired or is not yet valid: current time " + nowRfc3339() +
           " is before " + rfc3339(X509_get0_notBefore(cert));
  }
  if (X509_cmp_current_time(X509_get0_notAfter(cert)) < 0) {
    return "x509: certificate has expired or is not yet valid: current time " + nowRfc3339() +
           " is after " + rfc3339(X509_get0_notAfter(cert));
  }
  return std::nullopt;
}

// Go's name for an insecure signature algorithm (crypto/x509 rejects SHA-1 and MD5), or "".
std::string insecureSignature(const X509* cert) {
  int digest = NID_undef;
  int key = NID_undef;
  if (OBJ_find_sigid_algs(X509_get_signature_nid(cert), &digest, &key) != 1) return "";
  const bool rsa = key == NID_rsaEncryption;
  if (digest == NID_sha1) {
    return rsa ? "SHA1-RSA" : key == NID_X9_62_id_ecPublicKey ? "ECDSA-SHA1" : "DSA-SHA1";
  }
  if (digest == NID_md5) return "MD5-RSA";
  return "";
}

bool selfSigned(X509* cert) { return X509_check_issued(cert, cert) == X509_V_OK; }

struct Verification {
  bool ok = false;
  int error = X509_V_OK;
  ChainPtr chain;  // the verified chain, leaf first, when ok
};

Verification verifyChain(X509_STORE* store, STACK_OF(X509) * peerChain, bool checkTime) {
  Verification result;
  StoreCtxPtr ctx(X509_STORE_CTX_new());
  X509* leaf = sk_X509_value(peerChain, 0);
  if (!ctx || X509_STORE_CTX_init(ctx.get(), store, leaf, peerChain) != 1) {
    result.error = X509_V_ERR_UNSPECIFIED;
    return result;
  }
  // Go treats every certificate in the root pool as a trust anchor, intermediates included.
  unsigned long flags = X509_V_FLAG_PARTIAL_CHAIN;
  if (!checkTime) flags |= X509_V_FLAG_NO_CHECK_TIME;
  X509_STORE_CTX_set_flags(ctx.get(), flags);
  result.ok = X509_verify_cert(ctx.get()) == 1;
  result.error = X509_STORE_CTX_get_error(ctx.get());
  if (result.ok) result.chain.reset(X509_STORE_CTX_get1_chain(ctx.get()));
  return result;
}

// The verification root pool: caFile, else caPem, else the system roots (as Go's RootCAs).
StorePtr rootStore(const TlsOptions& tls, std::string& error) {
  StorePtr store(X509_STORE_new());
  if (!tls.caFile.empty()) {
    if (X509_STORE_load_file(store.get(), tls.caFile.c_str()) != 1) {
      error = "cannot load --ca-file " + tls.caFile + ": " + opensslErrors();
    }
  } else if (!tls.caPem.empty()) {
    std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>> bio(
        BIO_new_mem_buf(tls.caPem.data(), static_cast<int>(tls.caPem.size())));
    STACK_OF(X509_INFO)* infos = PEM_X509_INFO_read_bio(bio.get(), nullptr, nullptr, nullptr);
    int added = 0;
    for (int i = 0; infos != nullptr && i < sk_X509_INFO_num(infos); ++i) {
      X509_INFO* info = sk_X509_INFO_value(infos, i);
      if (info->x509 != nullptr && X509_STORE_add_cert(store.get(), info->x509) == 1) ++added;
    }
    sk_X509_INFO_pop_free(infos, X509_INFO_free);
    if (added == 0) error = "the CA bundle (caBundle) holds no PEM certificate";
  } else {
    X509_STORE_set_default_paths(store.get());
  }
  ERR_clear_error();
  return store;
}

bool isUnknownAuthority(int error) {
  switch (error) {
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_CERT_SIGNATURE_FAILURE:
      return true;
    default:
      return false;
  }
}

// Go rejects a chain when a certificate in it carries extended key usages without serverAuth
// (or anyExtendedKeyUsage); a certificate without the extension allows any usage.
bool allowsServerAuth(X509* cert) {
  if ((X509_get_extension_flags(cert) & EXFLAG_XKUSAGE) == 0) return true;
  return (X509_get_extended_key_usage(cert) & (XKU_SSL_SERVER | XKU_ANYEKU)) != 0;
}

void judgeCertificate(TlsInspection& out, const TlsOptions& tls, STACK_OF(X509) * peerChain) {
  X509* leaf = sk_X509_value(peerChain, 0);
  const CertificateNames names = certificateNames(leaf);
  out.subjectCommonName = names.commonName;
  out.sanDnsNames = names.dnsNames;
  out.sanIpAddresses = names.ipAddresses;
  out.notBefore = rfc3339(X509_get0_notBefore(leaf));
  out.notAfter = rfc3339(X509_get0_notAfter(leaf));

  std::string storeError;
  const StorePtr store = rootStore(tls, storeError);
  const Verification full = verifyChain(store.get(), peerChain, true);
  out.chainVerified = storeError.empty() && full.ok;
  out.chainError = !storeError.empty() ? storeError
                   : full.ok           ? ""
                                       : X509_verify_cert_error_string(full.error);

  // Go's order: leaf dates, host name, chain building, key usage.
  if (auto dates = validityError(leaf)) out.reasons.push_back(*dates);
  if (auto name = goVerifyHostname(names, out.verifiedName)) out.reasons.push_back(*name);

  const Verification trust = verifyChain(store.get(), peerChain, false);
  if (!storeError.empty()) {
    out.reasons.push_back("x509: certificate signed by unknown authority (" + storeError + ")");
  } else if (!trust.ok) {
    out.reasons.push_back(isUnknownAuthority(trust.error)
                              ? std::string("x509: certificate signed by unknown authority")
                              : std::string("x509: ") + X509_verify_cert_error_string(trust.error));
  }
  STACK_OF(X509)* chain = trust.ok ? trust.chain.get() : peerChain;
  const int count = sk_X509_num(chain);
  for (int i = 0; i < count; ++i) {
    X509* cert = sk_X509_value(chain, i);
    const bool anchor = trust.ok ? i == count - 1 : selfSigned(cert);
    if (anchor) continue;
    const std::string algorithm = insecureSignature(cert);
    if (!algorithm.empty()) {
      X509* issuer = i + 1 < count ? sk_X509_value(chain, i + 1) : nullptr;
      out.reasons.push_back(
          "x509: certificate signed by unknown authority (possibly because of \"x509: cannot "
          "verify signature: insecure algorithm " +
          algorithm + "\" while trying to verify candidate authority certificate \"" +
          (issuer != nullptr ? commonName(issuer) : std::string()) + "\")");
      break;
    }
  }
  if (trust.ok) {
    for (int i = 1; i < count; ++i) {
      X509* cert = sk_X509_value(chain, i);
      if (auto dates = validityError(cert)) {
        out.reasons.push_back(
            "x509: certificate signed by unknown authority (possibly because of \"" + *dates +
            "\" while trying to verify candidate authority certificate \"" + commonName(cert) +
            "\")");
        break;
      }
    }
  }
  for (int i = 0; i < (trust.ok ? count : 1); ++i) {
    if (!allowsServerAuth(sk_X509_value(chain, i))) {
      out.reasons.push_back("x509: certificate specifies an incompatible key usage");
      break;
    }
  }
}

}  // namespace

TlsInspection inspectServerTls(const std::string& url, const TlsOptions& tls,
                               std::chrono::milliseconds timeout) {
  TlsInspection out;
  out.url = url;
  std::string whyNot;
  const auto parts = parseUrl(url, &whyNot);
  if (!parts) {
    out.error = whyNot;
    out.reasons.push_back(whyNot);
    return out;
  }
  out.verifiedName = tls.serverName.empty() ? parts->host : tls.serverName;
  if (parts->scheme != "https") {
    out.applicable = false;
    out.error = "http:// URL " + url + ": no TLS to inspect (kube-apiserver only calls https://)";
    return out;
  }
  const auto deadline = Clock::now() + timeout;
  Handshake modern = handshake(*parts, out.verifiedName, tls, false, deadline);
  Handshake* used = &modern;
  Handshake legacy;
  if (!modern.completed && !modern.connectFailed && !modern.timedOut) {
    legacy = handshake(*parts, out.verifiedName, tls, true, deadline);
    if (legacy.completed) used = &legacy;
  }
  if (!used->completed) {
    out.error = modern.error;
    out.reasons.push_back(modern.error);
    return out;
  }
  out.handshakeCompleted = true;
  out.protocol = used->protocol;
  out.tls12OrNewer = used == &modern;
  if (!out.tls12OrNewer) {
    out.reasons.push_back("tls: the server negotiates only " + out.protocol +
                          "; kube-apiserver requires TLS 1.2 or newer");
  }
  if (!used->peerChain || sk_X509_num(used->peerChain.get()) == 0) {
    out.reasons.push_back("tls: the server presented no certificate");
    return out;
  }
  judgeCertificate(out, tls, used->peerChain.get());
  out.acceptedByKubeApiserver = out.reasons.empty();
  return out;
}

}  // namespace convcheck
