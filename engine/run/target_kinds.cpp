#include "engine/run/target_kinds.h"

#include <string_view>

#include "harness/transport/kcp_target.h"

namespace convcheck {

namespace {

using Open = std::unique_ptr<ReviewTarget> (*)(const ResolvedTarget&);
// What a kind refuses for a CRD before any review is sent ("" when nothing), or nullptr.
using Check = std::string (*)(const Crd&, const std::string& url);

std::unique_ptr<ReviewTarget> webhookOverHttp(const ResolvedTarget& target) {
  return std::make_unique<HttpsTarget>(target.url, target.transport);
}

std::unique_ptr<ReviewTarget> kcpConversionRules(const ResolvedTarget& target) {
  return kcpTarget(target.url);
}

// Every kind of target, by URL scheme. Adding one (a live cluster, an in-process converter, a fuzz
// engine) is its ReviewTarget and a row here.
struct TargetKind {
  std::string_view scheme;
  Open open;
  Check check = nullptr;
};
constexpr TargetKind kTargetKinds[] = {
    {"https://", webhookOverHttp},  // also --port-forward's local end of kubectl port-forward
    {"http://", webhookOverHttp},   // also --service-proxy's local kubectl proxy
    {kKcpTargetScheme, kcpConversionRules, kcpConversionProblems},  // --conversion
};

}  // namespace

std::unique_ptr<ReviewTarget> openTarget(const ResolvedTarget& target) {
  for (const auto& kind : kTargetKinds)
    if (std::string_view(target.url).substr(0, kind.scheme.size()) == kind.scheme)
      return kind.open(target);
  return webhookOverHttp(target);
}

bool isNetworkTarget(const std::string& url) {
  for (const auto& kind : kTargetKinds)
    if (std::string_view(url).substr(0, kind.scheme.size()) == kind.scheme)
      return kind.open == webhookOverHttp;
  return true;
}

std::string targetProblems(const Crd& crd, const std::string& url) {
  for (const auto& kind : kTargetKinds)
    if (std::string_view(url).substr(0, kind.scheme.size()) == kind.scheme)
      return kind.check ? kind.check(crd, url) : "";
  return "";
}

TargetFactory targetFactory(const TargetFactory& given) {
  return given ? given : TargetFactory(openTarget);
}

}  // namespace convcheck
