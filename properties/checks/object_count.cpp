// The object-count property: as many converted objects as sent. Judged on every answer; listed
// in property_registry.cpp.

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/property.h"

namespace convcheck {
namespace {

using nlohmann::json;

CheckResult judgeObjectCount(const ExchangeView& e) {
  if (auto why = e.objectsUnavailable(); !why.empty()) return notEvaluable("object-count", why);
  std::size_t sent = e.ex.sent.objects.size(), got = e.view.convertedCount;
  if (sent == got) return passed("object-count");
  return e.fail("object-count",
                fmt::format("{} objects sent, {} returned; kube-apiserver rejects the answer and "
                            "the read or write fails",
                            sent, got),
                {}, json(sent), json(got));
}

}  // namespace

const Property& objectCountProperty() {
  static const Property kProperty{"object-count", "as many converted objects as sent",
                                  PropertyScope::Exchange, "none", &judgeObjectCount};
  return kProperty;
}

}  // namespace convcheck
