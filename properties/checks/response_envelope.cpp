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

// "12 objects (3.4 kB)": the size of the request an answer was to.
std::string requestSize(const Exchange& ex) {
  const std::size_t objects = ex.sent.objects.size();
  const std::size_t bytes = requestBodyOf(ex).size();
  return fmt::format("{} object{} ({})", objects, objects == 1 ? "" : "s",
                     bytes < 1000 ? fmt::format("{} B", bytes)
                                  : fmt::format("{:.1f} kB", static_cast<double>(bytes) / 1e3));
}

// "http-status: HTTP 413", "decode", ...: where kube-apiserver stopped reading the answer.
std::string answerStage(const Exchange& ex) {
  const std::string stage = modelStageName(ex.verdict.stage);
  if (ex.verdict.stage == ModelStage::HttpStatus)
    return fmt::format("{}: HTTP {}", stage, ex.http.status);
  return stage;
}

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
      // What was seen: this answer, to this request; whether smaller requests pass is for the
      // run to say (a body-size limit's bisection, the other cases of the pair).
      return e.fail(kResponseEnvelopeId,
                    fmt::format("kube-apiserver rejects the answer ({}) to a request of {} {} -> "
                                "{}: the get, list, watch or write that sends it fails with HTTP "
                                "500",
                                answerStage(e.ex), requestSize(e.ex), e.ctx.from, e.ctx.to));
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
