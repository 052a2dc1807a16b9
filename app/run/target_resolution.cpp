#include "app/run/target_resolution.h"

#include <fmt/format.h>

#include "harness/transport/review_codec.h"
#include "harness/transport/webhook_tls.h"

namespace convcheck {

std::variant<ResolvedTarget, std::string> resolveTarget(const Crd& crd, const TargetChoice& given) {
  ResolvedTarget out;
  out.url = !given.url.empty() ? given.url : crd.clientConfig.url;
  if (out.url.empty()) {
    if (crd.clientConfig.service)
      return fmt::format(
          "{}: the webhook is a service reference ({}/{}); pass --url (e.g. through kubectl "
          "port-forward) — the certificate is then checked for {}",
          crd.name, crd.clientConfig.service->ns, crd.clientConfig.service->name,
          serviceServerName(*crd.clientConfig.service));
    return fmt::format("{}: no webhook URL: the CRD has no clientConfig; pass --url", crd.name);
  }
  out.transport = given.transport;
  out.transport.tls = webhookTls(crd, given.transport.tls, !given.url.empty());
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
