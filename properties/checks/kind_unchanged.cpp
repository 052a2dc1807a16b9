// The kind-unchanged property: the webhook keeps each object's kind. Judged on every answer;
// listed in property_registry.cpp.

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kKindUnchangedId[] = "kind-unchanged";

namespace {

using nlohmann::json;

CheckResult judgeKindUnchanged(const ExchangeView& e) {
  if (auto why = e.perObjectUnavailable(); !why.empty()) return notEvaluable(kKindUnchangedId, why);
  const auto& match = e.pairing();
  std::vector<std::string> wrong;
  json got;  // the first wrong object's kind, diffed as a field (every one is in the details)
  for (std::size_t i = 0; i < match.size(); ++i) {
    const json& o = e.view.convertedHeads[i];
    json k = o.is_object() && o.contains("kind") ? o["kind"] : json(nullptr);
    if (k != e.ex.sent.objects[match[i]]["kind"]) {
      wrong.push_back(fmt::format("index {}: kind {}", i, k.dump()));
      if (got.is_null()) got = {{"kind", k}};
    }
  }
  if (wrong.empty()) return passed(kKindUnchangedId);
  return e.fail(kKindUnchangedId,
                fmt::format("the webhook changes the kind (expected {}); kube-apiserver rejects "
                            "the answer",
                            e.ex.sent.kind),
                wrong, json{{"kind", e.ex.sent.kind}}, got);
}

}  // namespace

const Property& kindUnchangedProperty() {
  static const Property kProperty{.id = kKindUnchangedId,
                                  .holdsWhen = "kind equals the original kind",
                                  .scope = PropertyScope::Exchange,
                                  .calls = "none",
                                  .judgeExchange = &judgeKindUnchanged};
  return kProperty;
}

}  // namespace convcheck
