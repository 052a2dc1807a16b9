// The schema-valid property: converted objects validate against the target version's schema.
// Judged on the forward answer; listed in property_registry.cpp.

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/output_checks.h"
#include "properties/checks/property.h"

namespace convcheck {
namespace {

using nlohmann::json;

CheckResult judgeSchemaValid(const ExchangeRef& ref, const CaseContext& ctx,
                             const TargetValidator& validate) {
  const Exchange& ex = *ref;
  if (!ex.verdict.accepted()) return notEvaluable("schema-valid", "the conversion was rejected");
  if (!validate) return notEvaluable("schema-valid", "no validator");
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < ex.verdict.visible.size(); ++i)
    for (const auto& v : validate(ex.verdict.visible[i]))
      problems.push_back(fmt::format("index {}: {}", i, v));
  if (problems.empty()) return passed("schema-valid");
  return {"schema-valid", Outcome::Fail,
          findingOn("schema-valid", ref, ctx,
                    fmt::format("converted objects violate the {} schema; kube-apiserver does not "
                                "check conversion output, so clients reading at {} (typed Go "
                                "clients, kubectl validate, controllers) get objects they reject",
                                ctx.to, ctx.to),
                    problems),
          ""};
}

}  // namespace

const Property& schemaValidProperty() {
  static const Property kProperty{"schema-valid",
                                  "each converted object validates against the target version's "
                                  "schema (the API server does not check; clients break)",
                                  PropertyScope::Output,
                                  "none",
                                  nullptr,
                                  &judgeSchemaValid};
  return kProperty;
}

}  // namespace convcheck
