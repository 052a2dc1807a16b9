// The schema-valid property: converted objects validate against the target version's schema.
// Judged on the forward answer; listed in property_registry.cpp.

#include <regex>

#include <fmt/format.h>

#include "properties/checks/cause_analysis.h"
#include "properties/checks/exchange_view.h"
#include "properties/checks/output_checks.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kSchemaValidId[] = "schema-valid";

namespace {

using nlohmann::json;

CheckResult judgeSchemaValid(const ExchangeRef& ref, const CaseContext& ctx,
                             const TargetValidator& validate) {
  const Exchange& ex = *ref;
  if (!ex.verdict.accepted()) return notEvaluable(kSchemaValidId, "the conversion was rejected");
  if (!validate) return notEvaluable(kSchemaValidId, "no validator");
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < ex.verdict.visible.size(); ++i)
    for (const auto& v : validate(ex.verdict.visible[i]))
      problems.push_back(fmt::format("index {}: {}", i, v));
  if (problems.empty()) return passed(kSchemaValidId);
  return {kSchemaValidId, Outcome::Fail,
          findingOn(kSchemaValidId, ref, ctx,
                    fmt::format("converted objects violate the {} schema; kube-apiserver does not "
                                "check conversion output, so clients reading at {} (typed Go "
                                "clients, kubectl validate, controllers) get objects they reject",
                                ctx.to, ctx.to),
                    problems),
          ""};
}

// One cause per innermost violation the details name ("index 0: spec.port: …").
void schemaViolationCauses(const Finding& f, const SchemaLookup& schemaOf,
                           std::vector<Cause>& out) {
  static const std::regex detail(R"(^index (\d+): (.*?): (.*)$)");
  for (const auto& d : f.details) {
    std::smatch m;
    if (!std::regex_match(d, m, detail)) continue;
    // valijson repeats a violation on every parent ("Failed to validate against schema
    // associated with property name 'x'"): the innermost line is the cause.
    if (m[3].str().find("Failed to validate") != std::string::npos) continue;
    // A number the webhook rounded through float64 breaks the integer type: the rounding is
    // the cause, under every property that sees it.
    if (auto rounded = float64RoundedAt(f, std::stoul(m[1].str()), m[2].str())) {
      out.push_back({f.property + "|float64",
                     Severity::DataLoss,
                     float64Title(rounded->first, rounded->second),
                     {}});
      continue;
    }
    // valijson names a missing required field at its parent, the native check at the field:
    // one violation, one cause (the first line's words).
    static const std::regex missing(R"(^valijson: Missing required property '(.*)'\.?$)");
    std::string at = m[2].str(), message = m[3].str();
    std::smatch field;
    if (std::regex_match(message, field, missing)) {
      at = diffChildPath(at, field[1].str());
      message = "required field is missing";
    }
    std::string path = normalisedTextPath(at, schemaOf, f.to);
    out.push_back({f.property + "|invalid|" + path, Severity::Invented,
                   fmt::format("{}: {}", path, message), path});
  }
}

}  // namespace

const Property& schemaValidProperty() {
  static const Property kProperty{
      .id = kSchemaValidId,
      .holdsWhen =
          "each converted object validates against the target version's "
          "schema (the API server does not check; clients break)",
      .scope = PropertyScope::Output,
      .calls = "none",
      .severity = Severity::Invented,
      .causesInDetails = &schemaViolationCauses,
      .judgeOutput = &judgeSchemaValid};
  return kProperty;
}

}  // namespace convcheck
