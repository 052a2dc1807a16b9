// Inspects a webhook's TLS endpoint with its own handshake and judges the serving certificate as
// kube-apiserver's Go client would. Feeds the SPEC `tls` property and the run's diagnostics.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "harness/transport/transport_options.h"
#include "kube/apiserver/http_types.h"

namespace convcheck {

struct TlsInspection {
  std::string url;
  std::string verifiedName;         // name the certificate must carry: tls.serverName or URL host
  bool applicable = true;           // false for http:// URLs (nothing to inspect)
  bool handshakeCompleted = false;  // some TLS handshake finished (verification not enforced)
  std::string error;                // one line: why no handshake completed, or the URL is unusable
  std::string protocol;             // negotiated version, e.g. "TLSv1.3"
  bool tls12OrNewer = false;        // a handshake with TLS >= 1.2 succeeded
  std::string subjectCommonName;    // leaf certificate
  std::vector<std::string> sanDnsNames;
  std::vector<std::string> sanIpAddresses;
  std::string notBefore;  // RFC 3339 UTC, e.g. "2025-01-01T00:00:00Z"
  std::string notAfter;
  bool chainVerified = false;  // OpenSSL verifies the chain (with dates, without host name)
                               // against tls.caFile, else tls.caPem, else system roots
  std::string chainError;      // OpenSSL's reason when !chainVerified
  bool acceptedByKubeApiserver = false;
  // Why kube-apiserver would refuse the connection, in the order Go checks (TLS version, leaf
  // validity dates, host name, chain, key usage), in Go's wording; reasons[0] is the error the
  // API server would actually report. Empty when accepted.
  std::vector<std::string> reasons;
};

// Connects to the URL's host:port (SNI = tls.serverName or the URL host, none for IP literals),
// handshakes with TLS >= 1.2 and, failing that, with TLS 1.0/1.1 to tell "old TLS" from other
// failures, then applies Go crypto/x509 rules: SAN required for the name (no Common Name
// fallback), IP hosts only against IP SANs, dates, chain to the CA (Go: caBundle only, no system
// roots when one is given), no SHA-1/MD5 signatures, serverAuth extended key usage.
// tls.insecureSkipVerify does not change the verdict (kube-apiserver has no such option); the
// client certificate, if configured, is presented. Never throws for network conditions; the
// whole inspection finishes within about `timeout`.
TlsInspection inspectServerTls(const std::string& url, const TlsOptions& tls,
                               std::chrono::milliseconds timeout);

}  // namespace convcheck
