// The timeout property: every answer arrives within --timeout (kube-apiserver: 30 s). Judged on
// every answer; listed in property_registry.cpp.

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kTimeoutId[] = "timeout";

namespace {

using nlohmann::json;

CheckResult judgeTimeout(const ExchangeView& e) {
  if (e.timedOut() || e.ex.http.elapsed > e.ctx.timeout)
    return e.fail(kTimeoutId,
                  fmt::format("the webhook did not answer within {} ms; kube-apiserver gives up "
                              "after 30 s and every read of this kind at {} fails meanwhile",
                              e.ctx.timeout.count(), e.ctx.to),
                  {e.ex.http.transportError});
  return passed(kTimeoutId);
}

}  // namespace

const Property& timeoutProperty() {
  static const Property kProperty{.id = kTimeoutId,
                                  .holdsWhen =
                                      "every answer within --timeout (kube-apiserver: 30 s); "
                                      "p50/p95/p99 latency per version pair "
                                      "and batch size in every report",
                                  .scope = PropertyScope::Exchange,
                                  .calls = "none",
                                  .severity = Severity::Outage,
                                  .aboutLatency = true,
                                  .judgeExchange = &judgeTimeout};
  return kProperty;
}

}  // namespace convcheck
