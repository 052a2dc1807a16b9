// The uid-echo property: response.uid equals request.uid (kube-apiserver rejects v1 answers
// whose uid differs). Judged on every answer; listed in property_registry.cpp.

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kUidEchoId[] = "uid-echo";

namespace {

using nlohmann::json;

CheckResult judgeUidEcho(const ExchangeView& e) {
  if (!e.view.hasResponse) return notEvaluable(kUidEchoId, "no decodable response");
  std::string got = e.view.uid.value_or("");
  if (got == e.ex.sent.uid) return passed(kUidEchoId);
  std::string note = e.ex.sent.version == ReviewVersion::V1
                         ? "kube-apiserver rejects v1 reviews whose response.uid differs"
                         : "kube-apiserver does not enforce this for v1beta1 reviews, but "
                           "rejects it as soon as the CRD lists v1 first";
  return e.fail(kUidEchoId,
                fmt::format("response.uid is {} instead of the request's {}; {}", json(got).dump(),
                            json(e.ex.sent.uid).dump(), note),
                {}, json{{"response", {{"uid", e.ex.sent.uid}}}},
                json{{"response", {{"uid", got}}}});
}

}  // namespace

const Property& uidEchoProperty() {
  static const Property kProperty{.id = kUidEchoId,
                                  .holdsWhen =
                                      "response.uid equals request.uid (also checked for v1beta1, "
                                      "which kube-apiserver does not enforce)",
                                  .scope = PropertyScope::Exchange,
                                  .calls = "none",
                                  .severity = Severity::Cosmetic,
                                  .judgeExchange = &judgeUidEcho};
  return kProperty;
}

}  // namespace convcheck
