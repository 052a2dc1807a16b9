// A CA and a serving certificate for a webhook, made with OpenSSL: what `convcheck certs` writes
// and what `convcheck run -- COMMAND` gives the webhook it starts. Names as kube-apiserver dials.
#pragma once

#include <string>
#include <variant>
#include <vector>

namespace convcheck {

// The names a service's serving certificate carries: <svc>.<ns>.svc (what kube-apiserver
// verifies), <svc>.<ns>.svc.cluster.local, <svc>, <svc>.<ns> and localhost; 127.0.0.1 is an IP SAN.
std::vector<std::string> serviceDnsNames(const std::string& service, const std::string& ns);

struct ServingCertsRequest {
  std::vector<std::string> dnsNames;     // subjectAltName DNS entries; the first is the CN
  std::vector<std::string> ipAddresses;  // subjectAltName IP entries, e.g. 127.0.0.1
  int days = 365;                        // validity of both certificates from now
};

// PEM texts: the CA (self-signed, P-256) and the server certificate it signs (P-256,
// serverAuth, the requested SANs), with their private keys.
struct ServingCerts {
  std::string caCertPem, caKeyPem, certPem, keyPem;
};

// The certificates, or an error naming the OpenSSL step that failed.
std::variant<ServingCerts, std::string> makeServingCerts(const ServingCertsRequest& request);

// The file names written into a directory, as cert-manager's and controller-runtime's secrets
// name them.
inline constexpr const char* kCaCertFile = "ca.crt";
inline constexpr const char* kCaKeyFile = "ca.key";
inline constexpr const char* kServerCertFile = "tls.crt";
inline constexpr const char* kServerKeyFile = "tls.key";

// Writes the four files into `dir` (created if needed; keys readable by the owner only). Returns
// "" or an error naming the file.
std::string writeServingCerts(const ServingCerts& certs, const std::string& dir);

// The CA certificate as a CRD's clientConfig.caBundle: base64 of the PEM, one line.
std::string caBundleOf(const ServingCerts& certs);

}  // namespace convcheck
