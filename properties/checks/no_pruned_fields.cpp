// The no-pruned-fields property: the API server prunes no field of a converted object. Judged on
// the forward answer; listed in property_registry.cpp.

#include <fmt/format.h>

#include "kube/go/utf8_text.h"
#include "properties/checks/exchange_view.h"
#include "properties/checks/output_checks.h"
#include "properties/checks/property.h"

namespace convcheck {
namespace {

using nlohmann::json;

CheckResult judgeNoPrunedFields(const ExchangeRef& ref, const CaseContext& ctx,
                                const TargetValidator& /*validate*/) {
  const Exchange& ex = *ref;
  if (!ex.verdict.accepted())
    return notEvaluable("no-pruned-fields", "the conversion was rejected");
  std::vector<std::string> pruned;
  for (const auto& s : ex.verdict.silent)
    if (s.what == "pruned" || s.what == "null-pruned")
      pruned.push_back(fmt::format("index {}: {} ({}, value {})", s.index, s.path, s.what,
                                   shortenUtf8(s.value.dump(), 80)));
  if (pruned.empty()) return passed("no-pruned-fields");
  return {"no-pruned-fields", Outcome::Fail,
          findingOn("no-pruned-fields", ref, ctx,
                    fmt::format("the webhook writes fields the {} schema does not have; "
                                "kube-apiserver silently prunes them, so whatever they carry is "
                                "lost",
                                ctx.to),
                    pruned),
          ""};
}

}  // namespace

const Property& noPrunedFieldsProperty() {
  static const Property kProperty{
      "no-pruned-fields",
      "nothing the webhook wrote is pruned by the target schema (silent data loss)",
      PropertyScope::Output,
      "none",
      nullptr,
      &judgeNoPrunedFields};
  return kProperty;
}

}  // namespace convcheck
