#include "engine/run/target_kinds.h"

#include <string_view>

namespace convcheck {

namespace {

using Open = std::unique_ptr<ReviewTarget> (*)(const ResolvedTarget&);

std::unique_ptr<ReviewTarget> webhookOverHttp(const ResolvedTarget& target) {
  return std::make_unique<HttpsTarget>(target.url, target.transport);
}

// Every kind of target, by URL scheme. Adding one (a live cluster, an in-process converter, a fuzz
// engine) is its ReviewTarget and a row here.
struct TargetKind {
  std::string_view scheme;
  Open open;
};
constexpr TargetKind kTargetKinds[] = {
    {"https://", webhookOverHttp},  // also --port-forward's local end of kubectl port-forward
    {"http://", webhookOverHttp},   // also --service-proxy's local kubectl proxy
};

}  // namespace

std::unique_ptr<ReviewTarget> openTarget(const ResolvedTarget& target) {
  for (const auto& kind : kTargetKinds)
    if (std::string_view(target.url).substr(0, kind.scheme.size()) == kind.scheme)
      return kind.open(target);
  return webhookOverHttp(target);
}

TargetFactory targetFactory(const TargetFactory& given) {
  return given ? given : TargetFactory(openTarget);
}

}  // namespace convcheck
