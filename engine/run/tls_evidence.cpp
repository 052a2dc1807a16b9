#include "engine/run/tls_evidence.h"

#include "harness/transport/tls_inspect.h"
#include "properties/checks/property_registry.h"

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

std::vector<CheckResult> endpointResults(const ResolvedTarget& target,
                                         const std::function<bool(const std::string&)>& wants) {
  std::vector<const Property*> wanted;
  for (const auto& p : propertyRegistry())
    if (p.scope == PropertyScope::Endpoint && wants(std::string(p.id))) wanted.push_back(&p);
  std::vector<CheckResult> results;
  if (wanted.empty()) return results;
  const TlsEvidence evidence = tlsEvidence(target);
  for (const Property* p : wanted) results.push_back(p->judgeEndpoint(evidence));
  return results;
}

}  // namespace convcheck
