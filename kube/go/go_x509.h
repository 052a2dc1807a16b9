// Go crypto/x509's host name rules, as kube-apiserver's webhook client applies them to a serving
// certificate (no Common Name fallback, IP hosts against IP SANs only). Used by tls_inspect.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace convcheck {

// The names a certificate carries, as Go's x509.Certificate exposes them.
struct CertificateNames {
  std::string commonName;                // Subject CN (never used for matching by Go >= 1.17)
  std::vector<std::string> dnsNames;     // SAN dNSName entries
  std::vector<std::string> ipAddresses;  // SAN iPAddress entries, textual ("127.0.0.1", "::1")
  bool hasSanExtension = false;          // a subjectAltName extension is present at all
};

// Go's Certificate.VerifyHostname(host): nullopt when it accepts, else Go's exact error text, e.g.
//   "x509: certificate relies on legacy Common Name field, use SANs instead"
//   "x509: cannot validate certificate for 10.0.0.1 because it doesn't contain any IP SANs"
//   "x509: certificate is valid for a.example, b.example, not c.example"
// `host` may be a DNS name, an IPv4/IPv6 literal, or a bracketed IPv6 literal.
std::optional<std::string> goVerifyHostname(const CertificateNames& names, const std::string& host);

}  // namespace convcheck
