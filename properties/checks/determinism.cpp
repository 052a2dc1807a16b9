// The determinism property: the same request (a fresh uid) gives the same converted objects. One
// call of its own (the batch again); listed in property_registry.cpp.
#include "properties/checks/determinism.h"

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/json_diff.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kDeterminismId[] = "determinism";

CheckResult checkDeterminism(const ExchangeRef& first, const ExchangeRef& second,
                             const CaseContext& context) {
  const auto& a = first->verdict.visible;
  const auto& b = second->verdict.visible;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) continue;
    Finding f;
    f.property = kDeterminismId;
    f.from = context.from;
    f.to = context.to;
    std::string paths;
    auto diff = jsonDiff(a[i], b[i]);
    for (std::size_t k = 0; k < diff.size() && k < 3; ++k)
      paths += (k ? ", " : "") + (diff[k].path.empty() ? std::string("(root)") : diff[k].path);
    f.summary = fmt::format(
        "the same object converts differently on a second call ({}); every no-op update at {} "
        "becomes a write, bumps resourceVersion and wakes every watcher",
        paths, context.to);
    f.details.push_back(
        fmt::format("object {} of the batch differs between two identical requests", i));
    f.objectIndex = i;
    f.expected = a[i];
    f.got = b[i];
    f.batch = first->sent.objects;
    f.exchanges = {first, second};
    return {kDeterminismId, Outcome::Fail, std::move(f), ""};
  }
  return {kDeterminismId, Outcome::Pass, std::nullopt, ""};
}

namespace {

void runDeterminism(CaseCalls& c) {
  ExchangeRef again = c.send(c.batch(), c.context().to);
  c.record(again->verdict.accepted()
               ? checkDeterminism(c.forward(), again, c.context())
               : notEvaluable(kDeterminismId, "the repeated call was rejected"));
}

}  // namespace

const Property& determinismProperty() {
  static const Property kProperty{
      .id = kDeterminismId,
      .holdsWhen = "the same request (fresh uid) gives the same converted objects",
      .scope = PropertyScope::Case,
      .calls = "1 (the batch again, with a fresh uid)",
      .runCase = &runDeterminism};
  return kProperty;
}

}  // namespace convcheck
