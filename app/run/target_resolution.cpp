#include "app/run/target_resolution.h"

#include <fmt/format.h>

#include "harness/transport/review_codec.h"

namespace convcheck {

std::variant<ResolvedTarget, std::string> resolveTarget(const Crd& crd, const TargetChoice& given) {
  ResolvedTarget out;
  out.url = !given.url.empty() ? given.url : crd.clientConfig.url;
  if (out.url.empty()) {
    if (crd.clientConfig.service)
      return fmt::format(
          "{}: the webhook is a service reference ({}/{}); pass --url (e.g. through kubectl "
          "port-forward) — the certificate is then checked for {}.{}.svc",
          crd.name, crd.clientConfig.service->ns, crd.clientConfig.service->name,
          crd.clientConfig.service->name, crd.clientConfig.service->ns);
    return fmt::format("{}: no webhook URL: the CRD has no clientConfig; pass --url", crd.name);
  }
  out.transport = given.transport;
  if (out.transport.tls.caFile.empty() && out.transport.tls.caPem.empty())
    out.transport.tls.caPem = crd.clientConfig.caBundlePem;
  if (out.transport.tls.serverName.empty() && !given.url.empty() && crd.clientConfig.service)
    out.transport.tls.serverName =
        crd.clientConfig.service->name + "." + crd.clientConfig.service->ns + ".svc";
  auto version = given.reviewVersion ? given.reviewVersion
                                     : reviewVersionForStrategy(crd.conversionStrategy,
                                                                crd.conversionReviewVersions);
  if (!version)
    return fmt::format("{}: conversionReviewVersions lists neither v1 nor v1beta1", crd.name);
  out.reviewVersion = *version;
  return out;
}

std::unique_ptr<ReviewTarget> httpsTarget(const ResolvedTarget& target) {
  return std::make_unique<HttpsTarget>(target.url, target.transport);
}

}  // namespace convcheck
