// What the tls property judges: would kube-apiserver's Go client accept the serving certificate.
// The runner gathers it once per run (harness/transport's TLS inspection) for the registry's
// Endpoint-scope properties.
#pragma once

#include <string>
#include <vector>

namespace convcheck {

struct TlsEvidence {
  bool https = true;                // the URL is https://
  bool skipVerify = false;          // --insecure-skip-tls-verify
  bool handshakeCompleted = false;  // a certificate was seen
  std::string error;                // why the handshake did not complete
  bool acceptedByKubeApiserver = false;
  std::vector<std::string> reasons;  // why Go's verification would refuse it
};

}  // namespace convcheck
