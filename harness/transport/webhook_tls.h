// The TLS settings kube-apiserver uses for a CRD's conversion webhook, completing the user's: the
// CRD's caBundle when no CA was given, and <service>.<namespace>.svc as the name to verify when
// the webhook is a service reference reached through a URL of the user's (port-forward). Used by
// engine/run/target_resolution (run, replay, minimize) and reports/bundle_target (bundles).
#pragma once

#include <string>

#include "harness/transport/transport_options.h"
#include "kube/apiserver/http_types.h"
#include "kube/crd/crd.h"

namespace convcheck {

// "<name>.<namespace>.svc": the name a service's serving certificate is verified for.
std::string serviceServerName(const ServiceReference& service);

// `given` with the CA and the server name filled in from the CRD where it leaves them empty.
TlsOptions webhookTls(const Crd& crd, TlsOptions given, bool urlGiven);

}  // namespace convcheck
