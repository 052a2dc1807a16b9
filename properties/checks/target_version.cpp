// The target-version property: every converted object carries the desired apiVersion. Judged on
// every answer; listed in property_registry.cpp.

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kTargetVersionId[] = "target-version";

namespace {

using nlohmann::json;

CheckResult judgeTargetVersion(const ExchangeView& e) {
  if (auto why = e.perObjectUnavailable(); !why.empty()) return notEvaluable(kTargetVersionId, why);
  std::vector<std::string> wrong;
  json got;  // the first wrong object's apiVersion, diffed as a field (every one is in the details)
  for (std::size_t i = 0; i < e.view.convertedHeads.size(); ++i) {
    const json& o = e.view.convertedHeads[i];
    json v = o.is_object() && o.contains("apiVersion") ? o["apiVersion"] : json(nullptr);
    if (v != json(e.ex.sent.desiredApiVersion)) {
      wrong.push_back(fmt::format("index {}: apiVersion {}", i, v.dump()));
      if (got.is_null()) got = {{"apiVersion", v}};
    }
  }
  if (wrong.empty()) return passed(kTargetVersionId);
  return e.fail(kTargetVersionId,
                fmt::format("converted objects do not carry apiVersion {}; kube-apiserver rejects "
                            "the answer and reads at {} fail",
                            e.ex.sent.desiredApiVersion, e.ctx.to),
                wrong, json{{"apiVersion", e.ex.sent.desiredApiVersion}}, got);
}

}  // namespace

const Property& targetVersionProperty() {
  static const Property kProperty{
      .id = kTargetVersionId,
      .holdsWhen = "every converted object has apiVersion = desiredAPIVersion",
      .scope = PropertyScope::Exchange,
      .calls = "none",
      .judgeExchange = &judgeTargetVersion};
  return kProperty;
}

}  // namespace convcheck
