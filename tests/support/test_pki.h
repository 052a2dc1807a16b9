// A throw-away PKI for tests: a CA plus server and client certificates (and hostile variants),
// created with OpenSSL in a fresh temp dir. Used by every integration test that speaks TLS.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace convcheck::test {

// Which serving certificate the PKI issues (the CA and the client certificate never vary).
enum class ServerCertVariant {
  Valid,      // SAN IP:127.0.0.1, DNS:localhost (+ extraDnsNames), signed by ca.pem
  WrongSan,   // SAN DNS:wrong.example.invalid only: 127.0.0.1 does not match
  CnOnly,     // CN=127.0.0.1 and no subjectAltName extension (Go clients reject it)
  Expired,    // valid SAN, but notAfter is a day in the past
  UnknownCa,  // valid SAN, signed by a second CA that ca.pem does not contain
};

enum class KeyKind {
  EcP256,  // fast; the default
  Rsa2048,
};

struct TestPkiOptions {
  ServerCertVariant server = ServerCertVariant::Valid;
  KeyKind keyKind = KeyKind::EcP256;
  std::vector<std::string> extraDnsNames{};  // more DNS SANs for the server, e.g. "svc.ns.svc"
};

// Creates the files on construction and removes the directory on destruction. Throws
// std::runtime_error (naming the step and OpenSSL's reason) if anything fails.
class TestPki {
 public:
  explicit TestPki(TestPkiOptions options = {});
  ~TestPki();
  TestPki(const TestPki&) = delete;
  TestPki& operator=(const TestPki&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  std::string caFile() const;          // ca.pem: the trusted CA certificate
  std::string caKeyFile() const;       // ca-key.pem
  std::string serverCertFile() const;  // server.pem
  std::string serverKeyFile() const;   // server-key.pem
  std::string clientCertFile() const;  // client.pem (CN=convcheck-client, clientAuth)
  std::string clientKeyFile() const;   // client-key.pem
  // unknown-ca.pem: the CA that signed the server certificate for UnknownCa (else not created).
  std::string unknownCaFile() const;
  const std::string& caPem() const { return caPem_; }
  const TestPkiOptions& options() const { return options_; }

 private:
  TestPkiOptions options_;
  std::filesystem::path dir_;
  std::string caPem_;
};

// Makes a fresh directory under $TMPDIR (or /tmp) named prefix-XXXXXX; throws on failure.
std::filesystem::path makeTempDir(const std::string& prefix);

}  // namespace convcheck::test
