#include "engine/upgrade/release.h"

#include <fmt/format.h>

#include "engine/run/target_kinds.h"

namespace convcheck {

Release::Release(std::string name, const KindContext& kind, ResolvedTarget target,
                 TargetFactory makeTarget, int jobs)
    : name_(std::move(name)),
      kind_(kind),
      connections_(kind.crd(), std::move(target), targetFactory(makeTarget), jobs) {
  for (const auto& v : kind.crd().versions) {
    if (v.storage) storage_ = v.name;
    if (v.served && kind.hasVersion(v.name)) served_.push_back(v.name);
  }
}

SchemaLookup Release::schemas() const {
  const Crd* crd = &kind_.crd();
  return [crd](const std::string& version) -> const nlohmann::json* {
    const CrdVersion* v = crd->version(version);
    return v ? &v->schema : nullptr;
  };
}

void ReleaseCalls::add(const ReleaseCalls& other) {
  calls += other.calls;
  unreached += other.unreached;
  if (!other.lastError.empty()) lastError = other.lastError;
}

void ReleaseCalls::count(const HttpResult& http) {
  ++calls;
  if (!http.ok() && (http.transportErrorKind == TransportErrorKind::Connect ||
                     http.transportErrorKind == TransportErrorKind::Tls)) {
    ++unreached;
    lastError = http.transportError;
  }
}

std::string unreachableReason(const Release& release, const ReleaseCalls& calls) {
  if (calls.calls == 0 || calls.unreached < calls.calls) return "";
  return fmt::format("{}: could not reach the {} release's webhook: {}", release.crd().name,
                     release.name(), explainUnreachable(release.target(), calls.lastError));
}

}  // namespace convcheck
