// Throw-away certificates for the transport tests, made with the openssl CLI in a temporary dir.
// Used by tests/transport only (a local helper; tests/support has the shared one).
#pragma once

#include <string>

namespace convcheck::testing {

struct CertKey {
  std::string cert;  // PEM file path
  std::string key;   // PEM file path
};

// One CA ("convcheck-test-ca") plus leaf certificates, all EC P-256, valid 2020-2099 unless said.
class TransportPki {
 public:
  TransportPki();
  ~TransportPki();
  TransportPki(const TransportPki&) = delete;
  TransportPki& operator=(const TransportPki&) = delete;

  // The shared instance for this test binary (made once: each certificate costs a process).
  static const TransportPki& instance();

  std::string dir;
  std::string caFile;   // convcheck-test-ca
  std::string caPem;    // its PEM text
  CertKey server;       // CN=127.0.0.1, SAN IP:127.0.0.1, DNS:localhost, DNS:webhook.convcheck.svc
  CertKey cnOnly;       // CN=127.0.0.1, no subjectAltName
  CertKey expired;      // SANs as server, valid 2020-01-01 .. 2020-01-02
  CertKey notYetValid;  // SANs as server, valid from 2099-01-01
  CertKey unknownCa;    // SANs as server, signed by a CA nobody trusts
  CertKey sha1Signed;   // SANs as server, signature ecdsa-with-SHA1
  CertKey clientAuthOnly;  // SANs as server, extendedKeyUsage=clientAuth only
  CertKey client;          // CN=convcheck-client, extendedKeyUsage=clientAuth

 private:
  void run(const std::string& command) const;
  CertKey issue(const std::string& name, const std::string& cn, const std::string& extensions,
                const std::string& caName, const std::string& start, const std::string& end,
                const std::string& digest = "sha256") const;
  void makeCa(const std::string& name, const std::string& cn) const;
};

std::string readFile(const std::string& path);

}  // namespace convcheck::testing
