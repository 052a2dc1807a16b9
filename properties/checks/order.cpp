// The order property: converted object i is the conversion of sent object i (kube-apiserver
// matches by position). Judged on every answer; listed in property_registry.cpp.

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kOrderId[] = "order";

namespace {

using nlohmann::json;

CheckResult judgeOrder(const ExchangeView& e) {
  if (auto why = e.perObjectUnavailable(); !why.empty()) return notEvaluable(kOrderId, why);
  if (!e.isPermutation()) return passed(kOrderId);
  json sentIds = json::array(), gotIds = json::array();
  std::vector<std::string> details;
  for (std::size_t i = 0; i < e.ex.sent.objects.size(); ++i) {
    auto s = identityOf(e.ex.sent.objects[i]), g = identityOf(e.view.convertedHeads[i]);
    sentIds.push_back(describe(s));
    gotIds.push_back(describe(g));
    if (!(s == g))
      details.push_back(fmt::format("index {}: sent {}, got {}", i, describe(s), describe(g)));
  }
  return e.fail(kOrderId,
                "converted objects come back in a different order; kube-apiserver matches them "
                "by position, so a list with objects of several versions fails (or, with equal "
                "names, shows one object's data under another's name)",
                details, sentIds, gotIds);
}

}  // namespace

const Property& orderProperty() {
  static const Property kProperty{
      .id = kOrderId,
      .holdsWhen =
          "converted object i is the conversion of sent object i (identity by namespace/name/uid)",
      .scope = PropertyScope::Exchange,
      .calls = "none",
      .judgeExchange = &judgeOrder};
  return kProperty;
}

}  // namespace convcheck
