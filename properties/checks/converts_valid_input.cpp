// The converts-valid-input property: the webhook converts every schema-valid object (result
// Success). Judged on the forward answer; listed in property_registry.cpp.

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/output_checks.h"
#include "properties/checks/property.h"
#include "properties/checks/response_view.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kConvertsValidInputId[] = "converts-valid-input";

namespace {

using nlohmann::json;

CheckResult judgeConvertsValidInput(const ExchangeRef& ref, const CaseContext& ctx,
                                    const TargetValidator& /*validate*/) {
  const Exchange& ex = *ref;
  // The status is all it needs.
  ResponseView view = viewResponse(ex.http, 0, ex.verdict.validJsonBody);
  if (!view.hasResponse) return notEvaluable(kConvertsValidInputId, "no well-formed answer");
  if (view.resultStatus == "Success") return passed(kConvertsValidInputId);
  return {kConvertsValidInputId, Outcome::Fail,
          findingOn(kConvertsValidInputId, ref, ctx,
                    fmt::format("the webhook refuses to convert valid {} input to {}; every get, "
                                "list and watch at {} then fails, for this object and any LIST "
                                "that contains it",
                                ctx.from, ctx.to, ctx.to),
                    {fmt::format("result.status {}", json(view.resultStatus).dump())}),
          ""};
}

}  // namespace

const Property& convertsValidInputProperty() {
  static const Property kProperty{
      .id = kConvertsValidInputId,
      .holdsWhen = "every schema-valid object (minimal and full) converts with Success",
      .scope = PropertyScope::Output,
      .calls = "none",
      .judgeOutput = &judgeConvertsValidInput};
  return kProperty;
}

}  // namespace convcheck
