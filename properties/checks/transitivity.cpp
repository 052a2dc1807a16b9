// The transitivity property: A->B->C equals A->C, for single-object cases through a version the
// seed picks among those objects can be in. Two calls of its own; listed in property_registry.cpp.
#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/path_checks.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kTransitivityId[] = "transitivity";

using nlohmann::json;

CheckResult checkTransitivity(const ExchangeRef& direct, const ExchangeRef& first,
                              const ExchangeRef& second, const std::string& via,
                              const CaseContext& ctx) {
  const auto& a = direct->verdict.visible;
  const auto& b = second->verdict.visible;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) continue;
    return pathFailure(
        kTransitivityId, ctx,
        fmt::format("converting {} -> {} directly differs from going through {} ({}); which one "
                    "a client sees depends on the storage version and on which version the "
                    "object was last written in",
                    ctx.from, ctx.to, via, differingPaths(a[i], b[i])),
        fmt::format("object {}: {} -> {} vs {} -> {} -> {}", i, ctx.from, ctx.to, ctx.from, via,
                    ctx.to),
        a[i], b[i], direct->sent.objects, {direct, first, second});
  }
  return {kTransitivityId, Outcome::Pass, std::nullopt, ""};
}

namespace {

void runTransitivity(CaseCalls& c) {
  if (c.batch().size() != 1) return;
  const CaseContext& ctx = c.context();
  std::vector<std::string> vias;
  for (const auto& v : c.versions())
    if (v != ctx.from && v != ctx.to) vias.push_back(v);
  if (vias.empty()) return;  // two versions: there is no third path
  const std::string& via = vias[c.seed() % vias.size()];
  ExchangeRef first = c.send(c.batch(), via);
  if (!first->verdict.accepted()) {
    c.record(notEvaluable(kTransitivityId, "the conversion to " + via + " was rejected"));
    return;
  }
  ExchangeRef second = c.send(visibleOf(first), ctx.to);
  if (!second->verdict.accepted()) {
    c.record(notEvaluable(kTransitivityId, "the conversion from " + via + " was rejected"));
    return;
  }
  c.record(checkTransitivity(c.forward(), first, second, via, ctx));
}

}  // namespace

const Property& transitivityProperty() {
  static const Property kProperty{
      .id = kTransitivityId,
      .holdsWhen = "A->B->C equals A->C for every triple of versions",
      .scope = PropertyScope::Case,
      .calls = "2 per single-object case (A->B and B->C, B a third version the seed picks)",
      .runCase = &runTransitivity};
  return kProperty;
}

}  // namespace convcheck
