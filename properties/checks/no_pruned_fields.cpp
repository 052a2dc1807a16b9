// The no-pruned-fields property: the API server prunes no field of a converted object. Judged on
// the forward answer; listed in property_registry.cpp.

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "kube/go/utf8.h"
#include "properties/checks/cause_analysis.h"
#include "properties/checks/exchange_view.h"
#include "properties/checks/output_checks.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kNoPrunedFieldsId[] = "no-pruned-fields";

namespace {

using nlohmann::json;

CheckResult judgeNoPrunedFields(const ExchangeRef& ref, const CaseContext& ctx,
                                const TargetValidator& /*validate*/) {
  const Exchange& ex = *ref;
  if (!ex.verdict.accepted()) return notEvaluable(kNoPrunedFieldsId, "the conversion was rejected");
  std::vector<std::string> pruned;
  for (const auto& s : ex.verdict.silent)
    if (s.what == "pruned" || s.what == "null-pruned")
      pruned.push_back(fmt::format("index {}: {} ({}, value {})", s.index, s.path, s.what,
                                   shortenUtf8(s.value.dump(), 80)));
  if (pruned.empty()) return passed(kNoPrunedFieldsId);
  return {kNoPrunedFieldsId, Outcome::Fail,
          findingOn(kNoPrunedFieldsId, ref, ctx,
                    fmt::format("the webhook writes fields the {} schema does not have; "
                                "kube-apiserver silently prunes them, so whatever they carry is "
                                "lost",
                                ctx.to),
                    pruned),
          ""};
}

// One cause per path kube-apiserver pruned from an answer of the finding.
void prunedPathCauses(const Finding& f, const SchemaLookup& schemaOf, std::vector<Cause>& out) {
  for (const auto& ex : f.exchanges)
    for (const auto& s : ex->verdict.silent)
      if (s.what == "pruned" || s.what == "null-pruned") {
        // The path the webhook wrote is not in the target schema, but often in the source's
        // (a field carried over): whichever schema tells more map keys apart folds them.
        std::string path = normalisedTextPath(s.path, schemaOf, f.to);
        std::string viaSource = normalisedTextPath(s.path, schemaOf, f.from);
        if (std::count(viaSource.begin(), viaSource.end(), '*') >
            std::count(path.begin(), path.end(), '*'))
          path = std::move(viaSource);
        out.push_back({f.property + "|pruned|" + path, Severity::DataLoss,
                       fmt::format("{} is written by the webhook but not in the {} schema: "
                                   "kube-apiserver prunes it",
                                   path, f.to),
                       path});
      }
}

}  // namespace

const Property& noPrunedFieldsProperty() {
  static const Property kProperty{
      .id = kNoPrunedFieldsId,
      .holdsWhen = "nothing the webhook wrote is pruned by the target schema (silent data loss)",
      .scope = PropertyScope::Output,
      .calls = "none",
      .causesInDetails = &prunedPathCauses,
      .judgeOutput = &judgeNoPrunedFields};
  return kProperty;
}

}  // namespace convcheck
