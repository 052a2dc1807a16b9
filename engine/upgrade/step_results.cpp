#include "engine/upgrade/step_results.h"

namespace convcheck {

using nlohmann::json;

namespace {

// A failing result of `step` whose finding shows `call` (the request its bundle re-sends).
CheckResult failed(const Property& step, const std::string& from, const std::string& to,
                   const std::string& summary, const ExchangeRef& call,
                   const StepContext& context) {
  Finding f;
  f.property = std::string(step.id);
  f.from = from;
  f.to = to;
  f.summary = summary;
  f.batch = SharedObjects::own({context.input});
  f.origin = context.origin;
  f.seed = context.seed;
  f.part = "forward";
  if (call) {
    f.exchanges.push_back(call);
    f.caseObjects = call->sent.objects;
    f.caseTo = to;
  }
  return {std::string(step.id), Outcome::Fail, std::move(f), ""};
}

// Moves the acknowledged causes aside; a result left without a cause passes.
StepResult settled(CheckResult r, const std::string& from, const std::string& to,
                   const StepContext& context) {
  if (context.acks && r.finding) {
    r.acknowledged = context.acks->acknowledge(r.finding->causes, from, to, r.property);
    if (!r.acknowledged.empty() && r.finding->causes.empty()) {
      r.outcome = Outcome::Pass;
      r.finding.reset();
    }
  }
  return {std::move(r), from, to};
}

}  // namespace

StepResult stepPassed(const Property& step, const std::string& from, const std::string& to) {
  return {{std::string(step.id), Outcome::Pass, std::nullopt, ""}, from, to};
}

StepResult compareReads(const Property& step, const std::string& from, const std::string& to,
                        const json& before, const json& after, const ExchangeRef& call,
                        const std::string& summary, const StepContext& context) {
  if (before == after) return stepPassed(step, from, to);
  CheckResult r = failed(step, from, to, summary, call, context);
  r.finding->expected = before;
  r.finding->got = after;
  r.finding->causes = causesOf(*r.finding, context.schemas);
  return settled(std::move(r), from, to, context);
}

StepResult rejection(const Property& step, const std::string& from, const std::string& to,
                     const ExchangeRef& call, const std::string& summary,
                     const StepContext& context) {
  CheckResult r = failed(step, from, to, summary, call, context);
  r.finding->apiserverMessage = call->verdict.message;
  r.finding->causes = causesOf(*r.finding, context.schemas);
  return settled(std::move(r), from, to, context);
}

StepResult ownCause(const Property& step, const std::string& from, const std::string& to,
                    std::vector<Cause> causes, const std::string& summary,
                    std::vector<std::string> details, const StepContext& context,
                    const std::string& apiserverMessage, const ExchangeRef& call) {
  CheckResult r = failed(step, from, to, summary, call, context);
  r.finding->details = std::move(details);
  r.finding->apiserverMessage = apiserverMessage;
  for (auto& c : causes)
    if (c.problem.empty()) c.problem = c.key;
  r.finding->causes = std::move(causes);
  return settled(std::move(r), from, to, context);
}

}  // namespace convcheck
