// The schema-valid property: converted objects validate against the target version's schema.
// Judged on the forward answer; listed in property_registry.cpp.

#include <algorithm>
#include <cctype>
#include <optional>

#include <fmt/format.h>

#include "kube/apiserver/group_version.h"
#include "properties/checks/cause_analysis.h"
#include "properties/checks/exchange_view.h"
#include "properties/checks/output_checks.h"
#include "properties/checks/property.h"
#include "properties/checks/schema_fix_hint.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kSchemaValidId[] = "schema-valid";

namespace {

using nlohmann::json;

// How many hints one finding gives at most (one per violated field, whatever the object).
constexpr std::size_t kHintsPerFinding = 4;

// "spec.routes[0].port" -> "spec.routes[*].port": the field a hint is about, whatever the item.
std::string withoutIndices(const std::string& path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '[' && i + 1 < path.size() &&
        std::isdigit(static_cast<unsigned char>(path[i + 1]))) {
      const auto close = path.find(']', i);
      if (close != std::string::npos) {
        out += "[*]";
        i = close;
        continue;
      }
    }
    out += path[i];
  }
  return out;
}

CheckResult judgeSchemaValid(const ExchangeRef& ref, const CaseContext& ctx,
                             const TargetValidator& validate) {
  const Exchange& ex = *ref;
  if (!ex.verdict.accepted()) return notEvaluable(kSchemaValidId, "the conversion was rejected");
  if (!validate) return notEvaluable(kSchemaValidId, "no validator");
  std::vector<std::string> problems, hints, hinted;
  for (std::size_t i = 0; i < ex.verdict.visible.size(); ++i) {
    const json* sent = i < ex.sent.objects.size() ? &ex.sent.objects[i] : nullptr;
    const std::string from = sent != nullptr ? objectVersion(*sent) : ctx.from;
    for (const auto& v : validate(ex.verdict.visible[i])) {
      problems.push_back(fmt::format("index {}: {}", i, v));
      // Whether the webhook or the schemas are the likelier fix, once per field.
      const auto colon = v.find(": ");
      if (sent == nullptr || colon == std::string::npos || hints.size() == kHintsPerFinding)
        continue;
      const SchemaViolationSite site{v.substr(0, colon), v.substr(colon + 2), from, ctx.to};
      const std::string field = withoutIndices(site.path);
      if (std::find(hinted.begin(), hinted.end(), field) != hinted.end()) continue;
      hinted.push_back(field);
      if (auto hint = schemaFixHint(site, *sent, ex.verdict.visible[i],
                                    ctx.schemaOf ? ctx.schemaOf(from) : nullptr))
        hints.push_back("hint: " + *hint);
    }
  }
  if (problems.empty()) return passed(kSchemaValidId);
  problems.insert(problems.end(), hints.begin(), hints.end());
  return {kSchemaValidId, Outcome::Fail,
          findingOn(kSchemaValidId, ref, ctx,
                    fmt::format("converted objects violate the {} schema; kube-apiserver does not "
                                "check conversion output, so clients reading at {} (typed Go "
                                "clients, kubectl validate, controllers) get objects they reject",
                                ctx.to, ctx.to),
                    problems),
          ""};
}

// A detail line "index 0: spec.port: message" as its index, path and message.
struct Violation {
  std::size_t index = 0;
  std::string at, message;
};
std::optional<Violation> violationOf(const std::string& detail) {
  static const std::string lead = "index ";
  if (detail.rfind(lead, 0) != 0) return std::nullopt;
  std::size_t digits = lead.size();
  while (digits < detail.size() && std::isdigit(static_cast<unsigned char>(detail[digits])))
    ++digits;
  if (digits == lead.size() || detail.compare(digits, 2, ": ") != 0) return std::nullopt;
  const std::size_t path = digits + 2;
  const std::size_t colon = detail.find(": ", path);
  if (colon == std::string::npos) return std::nullopt;
  Violation v;
  v.index = std::stoul(detail.substr(lead.size(), digits - lead.size()));
  v.at = detail.substr(path, colon - path);
  v.message = detail.substr(colon + 2);
  return v;
}

// The field valijson names in "valijson: Missing required property 'x'." (else nullopt).
std::optional<std::string> missingRequired(const std::string& message) {
  static const std::string lead = "valijson: Missing required property '";
  if (message.rfind(lead, 0) != 0) return std::nullopt;
  std::size_t end = message.size();
  if (end > lead.size() && message[end - 1] == '.') --end;
  if (end <= lead.size() || message[end - 1] != '\'') return std::nullopt;
  return message.substr(lead.size(), end - 1 - lead.size());
}

// One cause per innermost violation the details name ("index 0: spec.port: …").
void schemaViolationCauses(const Finding& f, const SchemaLookup& schemaOf,
                           std::vector<Cause>& out) {
  for (const auto& d : f.details) {
    const auto m = violationOf(d);
    if (!m) continue;
    // valijson repeats a violation on every parent ("Failed to validate against schema
    // associated with property name 'x'"): the innermost line is the cause.
    if (m->message.find("Failed to validate") != std::string::npos) continue;
    // A number the webhook rounded through float64 breaks the integer type: the rounding is
    // the cause, under every property that sees it.
    if (auto rounded = float64RoundedAt(f, m->index, m->at)) {
      out.push_back({f.property + "|float64",
                     Severity::DataLoss,
                     float64Title(rounded->first, rounded->second),
                     {}});
      continue;
    }
    // valijson names a missing required field at its parent, the native check at the field:
    // one violation, one cause (the first line's words).
    std::string at = m->at, message = m->message;
    if (auto field = missingRequired(message)) {
      at = diffChildPath(at, *field);
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
