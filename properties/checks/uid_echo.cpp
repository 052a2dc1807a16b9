// The uid-echo property: response.uid equals request.uid (kube-apiserver rejects v1 answers
// whose uid differs). Judged on every answer; listed in property_registry.cpp.

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/property.h"

namespace convcheck {
namespace {

using nlohmann::json;

CheckResult judgeUidEcho(const ExchangeView& e) {
  if (!e.view.hasResponse) return notEvaluable("uid-echo", "no decodable response");
  std::string got = e.view.uid.value_or("");
  if (got == e.ex.sent.uid) return passed("uid-echo");
  std::string note = e.ex.sent.version == ReviewVersion::V1
                         ? "kube-apiserver rejects v1 reviews whose response.uid differs"
                         : "kube-apiserver does not enforce this for v1beta1 reviews, but "
                           "rejects it as soon as the CRD lists v1 first";
  return e.fail("uid-echo",
                fmt::format("response.uid is {} instead of the request's {}; {}", json(got).dump(),
                            json(e.ex.sent.uid).dump(), note),
                {}, json(e.ex.sent.uid), json(got));
}

}  // namespace

const Property& uidEchoProperty() {
  static const Property kProperty{"uid-echo",
                                  "response.uid equals request.uid (also checked for v1beta1, "
                                  "which kube-apiserver does not enforce)",
                                  PropertyScope::Exchange, "none", &judgeUidEcho};
  return kProperty;
}

}  // namespace convcheck
