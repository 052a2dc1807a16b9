#include "properties/checks/output_checks.h"

#include <fmt/format.h>

#include "properties/checks/response_view.h"

namespace convcheck {
namespace {

using nlohmann::json;

CheckResult blocked(const char* property, std::string why) {
  return {property, Outcome::Blocked, std::nullopt, std::move(why)};
}

Finding finding(const char* property, const Exchange& ex, const CaseContext& ctx,
                std::string summary, std::vector<std::string> details) {
  Finding f;
  f.property = property;
  f.from = ctx.from;
  f.to = ctx.to;
  f.summary = std::move(summary);
  f.apiserverMessage = ex.verdict.accepted() ? "" : ex.verdict.message;
  f.details = std::move(details);
  f.batch = ex.sent.objects;
  f.exchanges = {ex};
  return f;
}

CheckResult convertsValidInput(const Exchange& ex, const CaseContext& ctx) {
  ResponseView view = viewResponse(ex.http, 0);  // the status is all it needs
  if (!view.hasResponse) return blocked("converts-valid-input", "no well-formed answer");
  if (view.resultStatus == "Success") return {"converts-valid-input", Outcome::Pass, {}, ""};
  return {"converts-valid-input", Outcome::Fail,
          finding("converts-valid-input", ex, ctx,
                  fmt::format("the webhook refuses to convert valid {} input to {}; every get, "
                              "list and watch at {} then fails, for this object and any LIST "
                              "that contains it",
                              ctx.from, ctx.to, ctx.to),
                  {fmt::format("result.status {}", json(view.resultStatus).dump())}),
          ""};
}

CheckResult schemaValid(const Exchange& ex, const CaseContext& ctx,
                        const TargetValidator& validate) {
  if (!ex.verdict.accepted()) return blocked("schema-valid", "the conversion was rejected");
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < ex.verdict.visible.size(); ++i)
    for (const auto& v : validate(ex.verdict.visible[i]))
      problems.push_back(fmt::format("index {}: {}", i, v));
  if (problems.empty()) return {"schema-valid", Outcome::Pass, {}, ""};
  return {"schema-valid", Outcome::Fail,
          finding("schema-valid", ex, ctx,
                  fmt::format("converted objects violate the {} schema; kube-apiserver does not "
                              "check conversion output, so clients reading at {} (typed Go "
                              "clients, kubectl validate, controllers) get objects they reject",
                              ctx.to, ctx.to),
                  problems),
          ""};
}

CheckResult noPrunedFields(const Exchange& ex, const CaseContext& ctx) {
  if (!ex.verdict.accepted()) return blocked("no-pruned-fields", "the conversion was rejected");
  std::vector<std::string> pruned;
  for (const auto& s : ex.verdict.silent)
    if (s.what == "pruned" || s.what == "null-pruned")
      pruned.push_back(fmt::format("index {}: {} ({}, value {})", s.index, s.path, s.what,
                                   s.value.dump().substr(0, 80)));
  if (pruned.empty()) return {"no-pruned-fields", Outcome::Pass, {}, ""};
  return {"no-pruned-fields", Outcome::Fail,
          finding("no-pruned-fields", ex, ctx,
                  fmt::format("the webhook writes fields the {} schema does not have; "
                              "kube-apiserver silently prunes them, so whatever they carry is "
                              "lost",
                              ctx.to),
                  pruned),
          ""};
}

}  // namespace

std::vector<CheckResult> checkOutput(const Exchange& exchange, const CaseContext& context,
                                     const TargetValidator& validate) {
  return {convertsValidInput(exchange, context), schemaValid(exchange, context, validate),
          noPrunedFields(exchange, context)};
}

}  // namespace convcheck
