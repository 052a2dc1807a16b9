// The tls property: the serving certificate would be accepted by kube-apiserver's Go client.
// Judged once per run on the endpoint; listed in property_registry.cpp.
#include "properties/checks/tls.h"

#include "properties/checks/exchange_view.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kTlsId[] = "tls";

namespace {

CheckResult judgeTls(const TlsEvidence& evidence) {
  if (!evidence.https) return notEvaluable(kTlsId, "not an https:// URL");
  if (evidence.skipVerify) return notEvaluable(kTlsId, "--insecure-skip-tls-verify");
  // No certificate seen: nothing to judge.
  if (!evidence.handshakeCompleted)
    return notEvaluable(kTlsId, "no TLS handshake: " + evidence.error);
  if (evidence.acceptedByKubeApiserver) return passed(kTlsId);
  Finding f;
  f.property = kTlsId;
  f.summary =
      "kube-apiserver's Go client would refuse this serving certificate, so every conversion "
      "fails in a real cluster even though OpenSSL accepted it here";
  f.details = evidence.reasons;
  return {kTlsId, Outcome::Fail, f, ""};
}

}  // namespace

const Property& tlsProperty() {
  static const Property kProperty{
      .id = kTlsId,
      .holdsWhen =
          "the serving certificate would be accepted by kube-apiserver's "
          "Go client (SAN required, chain, expiry, TLS >= 1.2)",
      .scope = PropertyScope::Endpoint,
      .calls = "none (one TLS handshake per run)",
      .severity = Severity::Outage,
      .judgeEndpoint = &judgeTls};
  return kProperty;
}

}  // namespace convcheck
