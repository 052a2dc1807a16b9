// The object-count property: as many converted objects as sent. Judged on every answer; listed
// in property_registry.cpp.

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kObjectCountId[] = "object-count";

namespace {

using nlohmann::json;

CheckResult judgeObjectCount(const ExchangeView& e) {
  if (auto why = e.objectsUnavailable(); !why.empty()) return notEvaluable(kObjectCountId, why);
  std::size_t sent = e.ex.sent.objects.size(), got = e.view.convertedCount;
  if (sent == got) return passed(kObjectCountId);
  return e.fail(kObjectCountId,
                fmt::format("{} objects sent, {} returned; kube-apiserver rejects the answer and "
                            "the read or write fails",
                            sent, got),
                {}, json{{"convertedObjects", sent}}, json{{"convertedObjects", got}});
}

}  // namespace

const Property& objectCountProperty() {
  static const Property kProperty{.id = kObjectCountId,
                                  .holdsWhen = "as many converted objects as sent",
                                  .scope = PropertyScope::Exchange,
                                  .calls = "none",
                                  .judgeExchange = &judgeObjectCount};
  return kProperty;
}

}  // namespace convcheck
