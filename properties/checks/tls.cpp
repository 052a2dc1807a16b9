// The tls property: the serving certificate would be accepted by kube-apiserver's Go client.
// Judged once per run on the endpoint; listed in property_registry.cpp.
#include "properties/checks/tls.h"

#include "properties/checks/exchange_view.h"
#include "properties/checks/property.h"

namespace convcheck {

CheckResult judgeTls(const TlsEvidence& evidence) {
  if (!evidence.https) return notEvaluable("tls", "not an https:// URL");
  if (evidence.skipVerify) return notEvaluable("tls", "--insecure-skip-tls-verify");
  // No certificate seen: nothing to judge.
  if (!evidence.handshakeCompleted)
    return notEvaluable("tls", "no TLS handshake: " + evidence.error);
  if (evidence.acceptedByKubeApiserver) return passed("tls");
  Finding f;
  f.property = "tls";
  f.summary =
      "kube-apiserver's Go client would refuse this serving certificate, so every conversion "
      "fails in a real cluster even though OpenSSL accepted it here";
  f.details = evidence.reasons;
  return {"tls", Outcome::Fail, f, ""};
}

const Property& tlsProperty() {
  static const Property kProperty{"tls",
                                  "the serving certificate would be accepted by kube-apiserver's "
                                  "Go client (SAN required, chain, expiry, TLS >= 1.2)",
                                  PropertyScope::Endpoint,
                                  "none (one TLS handshake per run)",
                                  nullptr,
                                  nullptr,
                                  nullptr,
                                  &judgeTls};
  return kProperty;
}

}  // namespace convcheck
