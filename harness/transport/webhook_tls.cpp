#include "harness/transport/webhook_tls.h"

namespace convcheck {

std::string serviceServerName(const ServiceReference& service) {
  return service.name + "." + service.ns + ".svc";
}

TlsOptions webhookTls(const Crd& crd, TlsOptions given, bool urlGiven) {
  if (given.caFile.empty() && given.caPem.empty()) given.caPem = crd.clientConfig.caBundlePem;
  if (given.serverName.empty() && urlGiven && crd.clientConfig.service)
    given.serverName = serviceServerName(*crd.clientConfig.service);
  return given;
}

}  // namespace convcheck
