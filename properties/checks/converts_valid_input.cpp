// The converts-valid-input property: the webhook converts every schema-valid object (result
// Success). Judged on the forward answer; listed in property_registry.cpp.

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/output_checks.h"
#include "properties/checks/property.h"
#include "properties/checks/response_view.h"

namespace convcheck {
namespace {

using nlohmann::json;

CheckResult judgeConvertsValidInput(const ExchangeRef& ref, const CaseContext& ctx,
                                    const TargetValidator& /*validate*/) {
  const Exchange& ex = *ref;
  ResponseView view = viewResponse(ex.http, 0);  // the status is all it needs
  if (!view.hasResponse) return notEvaluable("converts-valid-input", "no well-formed answer");
  if (view.resultStatus == "Success") return passed("converts-valid-input");
  return {"converts-valid-input", Outcome::Fail,
          findingOn("converts-valid-input", ref, ctx,
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
      "converts-valid-input",
      "every schema-valid object (minimal and full) converts with Success",
      PropertyScope::Output,
      "none",
      nullptr,
      &judgeConvertsValidInput};
  return kProperty;
}

}  // namespace convcheck
