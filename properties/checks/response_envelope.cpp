// The response-envelope property: kube-apiserver accepts the answer as a ConversionReview at all
// (status, body, envelope, result). Judged on every answer; listed in property_registry.cpp.

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kResponseEnvelopeId[] = "response-envelope";

namespace {

using nlohmann::json;

CheckResult judgeResponseEnvelope(const ExchangeView& e) {
  if (e.timedOut()) return notEvaluable(kResponseEnvelopeId, "no answer within the timeout");
  if (!e.ex.http.ok())
    return e.fail(kResponseEnvelopeId,
                  fmt::format("the call failed before any answer ({}); every request needing "
                              "conversion to {} fails while this happens",
                              transportErrorKindName(e.ex.http.transportErrorKind), e.ctx.to),
                  {e.ex.http.transportError});
  switch (e.ex.verdict.stage) {
    case ModelStage::HttpStatus:
    case ModelStage::EmptyBody:
    case ModelStage::Decode:
    case ModelStage::EnvelopeGvk:
    case ModelStage::ResultStatus:
      // A well-formed refusal is judged by converts-valid-input; other statuses are malformed.
      if (e.view.resultStatus == "Failure") return passed(kResponseEnvelopeId);
      [[fallthrough]];
    case ModelStage::NoResponse:
    case ModelStage::ObjectParse:
      return e.fail(kResponseEnvelopeId,
                    fmt::format("kube-apiserver rejects the answer ({}), so every get, list, "
                                "watch and write needing {} -> {} fails with HTTP 500",
                                modelStageName(e.ex.verdict.stage), e.ctx.from, e.ctx.to));
    default:
      return passed(kResponseEnvelopeId);
  }
}

}  // namespace

const Property& responseEnvelopeProperty() {
  static const Property kProperty{
      .id = kResponseEnvelopeId,
      .holdsWhen =
          "HTTP 200-206, a parseable ConversionReview of the version sent, response present, "
          "result.status Success or a well-formed Failure",
      .scope = PropertyScope::Exchange,
      .calls = "none",
      .judgeExchange = &judgeResponseEnvelope};
  return kProperty;
}

}  // namespace convcheck
