#include "app/run/tls_evidence.h"

#include "harness/transport/tls_inspect.h"

namespace convcheck {

TlsEvidence tlsEvidence(const ResolvedTarget& target) {
  const TransportOptions& transport = target.transport;
  TlsEvidence evidence;
  evidence.https = target.url.rfind("https://", 0) == 0;
  evidence.skipVerify = transport.tls.insecureSkipVerify;
  if (evidence.https && !evidence.skipVerify) {
    TlsInspection inspection = inspectServerTls(target.url, transport.tls, transport.timeout);
    evidence.handshakeCompleted = inspection.handshakeCompleted;
    evidence.error = inspection.error;
    evidence.acceptedByKubeApiserver = inspection.acceptedByKubeApiserver;
    evidence.reasons = inspection.reasons;
  }
  return evidence;
}

}  // namespace convcheck
