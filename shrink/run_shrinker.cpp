#include "shrink/run_shrinker.h"

#include <algorithm>

#include "harness/plan/planned_batch.h"
#include "properties/checks/problem_identity.h"
#include "shrink/object_size.h"

namespace convcheck {

using nlohmann::json;

rc::Shrinkable<json> treeMatching(rc::Shrinkable<json> tree, const json& sent) {
  json value = tree.value();
  if (value == sent) return tree;
  if (!value.is_object() || !sent.is_object()) return rc::shrinkable::just(sent);
  json patch = json::object();  // top-level keys and metadata identity keys to force
  for (const char* key : {"apiVersion", "kind"})
    if (sent.contains(key)) patch[key] = sent[key];
  json identity = json::object();
  const json meta = sent.value("metadata", json::object());
  const json mine = value.value("metadata", json::object());
  for (const char* key : {"name", "namespace", "uid"}) {
    json want = meta.contains(key) ? meta[key] : json();
    json have = mine.contains(key) ? mine[key] : json();
    if (want != have) identity[key] = want;  // null: remove
  }
  auto mapped = rc::shrinkable::map(std::move(tree), [patch, identity](json o) {
    if (!o.is_object()) return o;
    for (auto it = patch.begin(); it != patch.end(); ++it) o[it.key()] = it.value();
    if (!identity.empty()) {
      json& m = o["metadata"];
      for (auto it = identity.begin(); it != identity.end(); ++it) {
        if (it.value().is_null())
          m.erase(it.key());
        else
          m[it.key()] = it.value();
      }
    }
    return o;
  });
  if (mapped.value() == sent) return mapped;
  return rc::shrinkable::just(sent);
}

RunShrinker::RunShrinker(const std::map<std::string, ObjectGenerator>& generators,
                         const std::map<std::string, ValidityChecker>& checkers, int budget)
    : generators_(generators), checkers_(checkers), budget_(budget) {}

ShrinkSchemas RunShrinker::schemas() const {
  ShrinkSchemas s;
  for (const auto& [version, checker] : checkers_) s.checkers[version] = &checker;
  for (const auto& [version, gen] : generators_) s.roots[version] = gen.schema().root;
  return s;
}

ShrinkCase RunShrinker::caseFor(const SharedObjects& sent, const CaseInfo& info) const {
  ShrinkCase c;
  c.to = info.to;
  c.seed = info.seed;
  const PlannedCase* planned = info.planned;
  for (std::size_t j = 0; j < sent.size(); ++j) {
    const std::string version = objectVersion(sent[j]);
    rc::Shrinkable<json> tree = rc::shrinkable::just(sent[j]);
    auto gen = generators_.find(version);
    if (planned && j < planned->sourceVersions.size() && planned->sourceVersions[j] == version &&
        gen != generators_.end()) {
      tree = treeMatching(plannedDraw(gen->second, *planned, j), sent[j]);
    }
    c.items.push_back({version, tree, j});
  }
  if (planned) {
    const auto* generators = &generators_;
    const PlannedCase p = *planned;
    const std::string group = [&] {
      std::string apiVersion = sent.empty() ? "" : sent.front().value("apiVersion", "");
      auto slash = apiVersion.rfind('/');
      return slash == std::string::npos ? std::string() : apiVersion.substr(0, slash + 1);
    }();
    c.regenerate = [generators, p, group](
                       std::size_t slot,
                       const std::string& version) -> std::optional<rc::Shrinkable<json>> {
      auto gen = generators->find(version);
      if (gen == generators->end()) return std::nullopt;
      auto tree = plannedDraw(gen->second, p, slot);
      const std::string apiVersion = group + version;
      return rc::shrinkable::map(std::move(tree), [apiVersion](json o) {
        if (o.is_object()) o["apiVersion"] = apiVersion;
        return o;
      });
    };
  }
  return c;
}

std::vector<ShrinkJob> RunShrinker::select(const CaseResult& result, const CaseInfo& info) {
  std::vector<ShrinkJob> jobs;
  if (!result.forwardCall) return jobs;
  const SharedObjects& sent = result.forwardCall->sent.objects;
  for (const FailureTarget& target : failuresOf(result, info.from, info.to)) {
    const CheckResult* original = locateFailure(result, target);
    if (!original) continue;
    Severity severity = Severity::DataLoss;
    std::string problem = problemOfCauseKey(target.cause);
    for (const auto& c : original->finding->causes)
      if (c.key == target.cause) {
        severity = c.severity;
        if (!c.problem.empty()) problem = c.problem;
      }
    if (!seen_.insert(problem).second) continue;
    std::optional<PlannedCase> planned;
    if (info.planned) planned = *info.planned;
    jobs.push_back({problem, severity, target, std::move(planned), *original, sent, info.seed,
                    info.to, info.origin, info.requestsSoFar});
  }
  return jobs;
}

void RunShrinker::rank(std::vector<ShrinkJob>& jobs) {
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const ShrinkJob& a, const ShrinkJob& b) { return a.severity < b.severity; });
}

ShrunkExample RunShrinker::shrink(const ShrinkJob& job, const CaseRunner& run) const {
  ShrinkOutcome outcome;
  const int granted = budget_ > 0 ? shared_.reserve(budget_) : 0;
  if (granted > 0) {
    const CaseInfo info{job.planned ? job.planned->from : job.target.from,
                        job.to,
                        job.seed,
                        job.planned ? &*job.planned : nullptr,
                        job.origin,
                        job.requestsSoFar};
    outcome =
        shrinkFailure(caseFor(job.sent, info), job.target, job.original, schemas(), run, granted);
    shared_.giveBack(granted - outcome.info.calls);
    if (granted < budget_ && outcome.info.budgetExhausted) shared_.markHit();
  } else {
    outcome.result = job.original;
    outcome.info.reproduced = false;
    if (budget_ > 0) {  // the run's shrinks spent their share before this one
      outcome.info.budgetExhausted = true;
      shared_.markHit();
    }
  }
  const bool shrunk = granted > 0 && outcome.result.finding && job.sent != outcome.batch;
  return example(job, std::move(outcome), shrunk);
}

ShrunkExample RunShrinker::unshrunk(const ShrinkJob& job) const {
  ShrinkOutcome outcome;
  outcome.result = job.original;
  outcome.info.reproduced = false;
  return example(job, std::move(outcome), false);
}

ShrunkExample RunShrinker::example(const ShrinkJob& job, ShrinkOutcome outcome, bool shrunk) const {
  // Unshrunk, the example is the original failure and shares the objects and exchanges testing
  // kept (a LIST chunk is held once, however many problems it shows first), not the copies the
  // shrink's calls made of them.
  Finding finding = shrunk ? *outcome.result.finding : *job.original.finding;
  finding.caseObjects = shrunk ? SharedObjects::own(std::move(outcome.batch)) : job.sent;
  finding.seed = job.seed;
  finding.caseTo = job.to;
  finding.part = casePartName(job.target.part);
  finding.origin = job.origin;
  finding.foundAtRequest = job.requestsSoFar;
  const BatchSize before = measureBatch(job.sent);
  outcome.info.originalObjects = before.objects;
  outcome.info.originalFields = before.fields;
  outcome.info.originalBytes = before.bytes;
  if (!shrunk && outcome.info.calls == 0) {
    outcome.info.shrunkObjects = before.objects;
    outcome.info.shrunkFields = before.fields;
    outcome.info.shrunkBytes = before.bytes;
  }
  finding.shrink = outcome.info;
  return {job.target, job.problem, std::move(finding)};
}

}  // namespace convcheck
