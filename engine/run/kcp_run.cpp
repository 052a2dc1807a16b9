#include "engine/run/kcp_run.h"

#include <utility>
#include <variant>

#include <fmt/format.h>

#include "harness/transport/kcp_target.h"
#include "properties/checks/property_registry.h"

namespace convcheck {

namespace {

void acknowledgePreserveAnnotations(const kcp::ApiConversion& conversion, RunConfig& c) {
  for (std::size_t i = 0; i < conversion.conversions.size(); ++i) {
    const kcp::VersionConversion& entry = conversion.conversions[i];
    if (entry.preserve.empty()) continue;
    if (!c.acks) c.acks.emplace();
    if (c.acks->source.empty()) c.acks->source = conversion.source;
    Acknowledgement a;
    a.kind = Acknowledgement::Kind::Annotation;
    a.key = kcp::kPreserveAnnotationPrefix + entry.from;
    a.reason = "kcp keeps the fields " + entry.from + " preserves here for the way back";
    a.where = fmt::format("{}: spec.conversions[{}].preserve", conversion.source, i);
    c.acks->items.push_back(std::move(a));
  }
}

}  // namespace

std::string prepareKcpRun(RunConfig& c) {
  if (!isKcpTargetUrl(c.url)) return "";
  auto opened = openKcpConversion(c.url);
  if (auto* error = std::get_if<std::string>(&opened)) return "--conversion: " + *error;
  acknowledgePreserveAnnotations(std::get<kcp::KcpConverter>(opened).conversion(), c);
  if (c.properties.empty())
    for (const auto& p : propertyRegistry())
      if (p.id != "no-pruned-fields") c.properties.push_back(std::string(p.id));
  return "";
}

}  // namespace convcheck
