#include "engine/run/target_resolution.h"

#include <fmt/format.h>

#include "engine/run/target_kinds.h"
#include "harness/cluster/cluster_reads.h"
#include "harness/transport/review_codec.h"
#include "harness/transport/url_parts.h"
#include "harness/transport/webhook_tls.h"

namespace convcheck {

std::variant<ResolvedTarget, std::string> resolveTarget(const Crd& crd, const TargetChoice& given) {
  ResolvedTarget out;
  if (!given.serviceProxy.empty()) {
    if (!crd.clientConfig.service)
      return fmt::format(
          "{}: --service-proxy: the webhook is not a service reference (clientConfig.url {})",
          crd.name, crd.clientConfig.url.empty() ? "unset" : crd.clientConfig.url);
    out.url = given.serviceProxy + serviceProxyPath(*crd.clientConfig.service);
    out.transport = given.transport;
    out.transport.tls = TlsOptions{};  // plain HTTP to the local kubectl proxy
  }
  if (out.url.empty()) out.url = !given.url.empty() ? given.url : crd.clientConfig.url;
  if (out.url.empty()) {
    if (crd.clientConfig.service)
      return fmt::format(
          "{}: the webhook is a service reference ({}/{}); pass --port-forward or --service-proxy "
          "(convcheck reaches it through kubectl), or --url of your own port-forward — the "
          "certificate is then checked for {}",
          crd.name, crd.clientConfig.service->ns, crd.clientConfig.service->name,
          serviceServerName(*crd.clientConfig.service));
    return fmt::format("{}: no webhook URL: the CRD has no clientConfig; pass --url", crd.name);
  }
  if (given.serviceProxy.empty()) {
    if (!given.url.empty() && crd.clientConfig.service) {
      out.service = crd.clientConfig.service;
      if (!out.service->path.empty())
        out.url = withPathIfNone(given.url, out.service->path).value_or(given.url);
    }
    out.transport = given.transport;
    out.transport.tls = webhookTls(crd, given.transport.tls, !given.url.empty());
  }
  auto version = given.reviewVersion ? given.reviewVersion
                                     : reviewVersionForStrategy(crd.conversionStrategy,
                                                                crd.conversionReviewVersions);
  if (!version)
    return fmt::format("{}: conversionReviewVersions lists neither v1 nor v1beta1", crd.name);
  out.reviewVersion = *version;
  if (auto problems = targetProblems(crd, out.url); !problems.empty()) return problems;
  return out;
}

std::variant<std::unique_ptr<KubectlProxy>, std::string> startServiceProxy(
    const ClusterAccess& cluster) {
  auto started = KubectlProxy::start(cluster, kServiceProxyPaths);
  if (auto* error = std::get_if<std::string>(&started)) return "--service-proxy: " + *error;
  return started;
}

std::string portForwardUnsupported(const Crd& crd) {
  if (crd.clientConfig.service) return "";
  return fmt::format(
      "{}: --port-forward: the webhook is not a service reference (clientConfig.url {})", crd.name,
      crd.clientConfig.url.empty() ? "unset" : crd.clientConfig.url);
}

std::variant<std::unique_ptr<KubectlPortForward>, std::string> startPortForward(
    const ClusterAccess& cluster, const Crd& crd, std::chrono::milliseconds wait) {
  auto started = KubectlPortForward::start(cluster, *crd.clientConfig.service,
                                           wait.count() > 0 ? wait : kPortForwardWait);
  if (auto* error = std::get_if<std::string>(&started)) return "--port-forward: " + *error;
  return started;
}

std::string explainUnreachable(const ResolvedTarget& target, const std::string& reason) {
  if (!target.service || reason.rfind("TLS: certificate verify failed", 0) != 0) return reason;
  const ServiceReference& service = *target.service;
  const std::string apiserverName = serviceServerName(service);
  const std::string& verified = target.transport.tls.serverName;
  if (verified != apiserverName)
    return fmt::format(
        "{} — verified for --tls-server-name {}; kube-apiserver verifies {} (service {}/{})",
        reason, verified, apiserverName, service.ns, service.name);
  return fmt::format(
      "{} — the webhook is service {}/{}, so the certificate is verified for {} as "
      "kube-apiserver does; for a certificate made for another name (e.g. localhost) pass "
      "--tls-server-name NAME, or make one for the service with `convcheck certs --service {} "
      "--namespace {}`",
      reason, service.ns, service.name, apiserverName, service.name, service.ns);
}

}  // namespace convcheck
