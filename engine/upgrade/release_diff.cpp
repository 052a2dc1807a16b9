#include "engine/upgrade/release_diff.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <ostream>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "engine/run/batch_maker.h"
#include "engine/run/crd_source.h"
#include "engine/run/kind_report_header.h"
#include "engine/run/tally.h"
#include "engine/upgrade/step_results.h"
#include "harness/plan/test_plan.h"
#include "kube/apiserver/group_version.h"
#include "kube/apiserver/structural_defaults.h"
#include "properties/checks/problem_identity.h"
#include "properties/checks/release_properties.h"
#include "shrink/run_shrinker.h"

namespace convcheck {
namespace {

using nlohmann::json;

struct DiffInputError {
  std::string message;
};

// One planned case: its pair and the batch both webhooks get.
struct DiffCase {
  PlannedCase planned;
  std::vector<json> batch;
};

// How kube-apiserver ended an exchange, in the words that tell two failures apart: the stage and
// the masked message ("" when it accepted the answer).
std::string failureOf(const Exchange& ex) {
  if (ex.verdict.accepted()) return "";
  return std::string(modelStageName(ex.verdict.stage)) + "|" + maskedRejection(ex);
}

// Whether two answers to the same review look the same to a client.
bool sameAnswer(const Exchange& a, const Exchange& b) {
  if (failureOf(a) != failureOf(b)) return false;
  return !a.verdict.accepted() || a.verdict.visible == b.verdict.visible;
}

StepResult differenceOf(const PlannedCase& c, const ExchangeRef& a, const ExchangeRef& b,
                        const StepContext& context) {
  const Property& p = sameBehaviourProperty();
  if (a->verdict.accepted() && !b->verdict.accepted())
    return rejection(p, c.from, c.to, b,
                     "the new webhook's answer to this review is rejected by kube-apiserver; the "
                     "old one's was accepted",
                     context);
  if (!a->verdict.accepted()) {
    const std::string masked = failureOf(*a);
    const bool both = !b->verdict.accepted();
    return ownCause(
        p, c.from, c.to,
        {{fmt::format("same-behaviour|{}|{}", both ? "rejected-differently" : "now-accepted",
                      both ? failureOf(*b) : masked),
          both ? Severity::Cosmetic : Severity::Invented,
          both ? fmt::format("both answers are rejected, with other messages (old: {}; new: {})",
                             a->verdict.message, b->verdict.message)
               : "the new webhook converts what kube-apiserver rejected from the old one: " +
                     a->verdict.message}},
        both ? "kube-apiserver rejects both answers to this review, with other messages"
             : "the new webhook converts this review; kube-apiserver rejected the old one's answer",
        {"old: " + a->verdict.message}, context, b->verdict.message, b);
  }
  std::size_t i = 0;
  while (i + 1 < a->verdict.visible.size() && a->verdict.visible[i] == b->verdict.visible[i]) ++i;
  StepResult r = compareReads(
      p, c.from, c.to, a->verdict.visible[i], b->verdict.visible[i], b,
      fmt::format("the new webhook converts object {} of this review to {} differently than the "
                  "old one",
                  i, c.to),
      context);
  if (r.result.finding) r.result.finding->objectIndex = i;
  return r;
}

// The calls of one case to each webhook.
struct DiffCalls {
  ReleaseCalls oldCalls, newCalls;
};

ExchangeRef counted(Converter& converter, const DiffCase& c, ReleaseCalls& count) {
  std::mt19937_64 uids(c.planned.seed);  // the same request uid for both webhooks
  ExchangeRef ex = share(converter.convert(c.batch, c.planned.to, uids));
  count.count(ex->http);
  return ex;
}

// The diff of one case: the same review to both webhooks; a difference is checked once more
// against the old webhook, whose answer must not change for it to count.
StepResult diffCase(const DiffCase& c, Converter& oldCalls, Converter& newCalls,
                    const StepContext& base, DiffCalls& count) {
  ExchangeRef a = counted(oldCalls, c, count.oldCalls);
  ExchangeRef b = counted(newCalls, c, count.newCalls);
  if (sameAnswer(*a, *b)) return stepPassed(sameBehaviourProperty(), c.planned.from, c.planned.to);
  ExchangeRef again = counted(oldCalls, c, count.oldCalls);
  if (!sameAnswer(*a, *again))
    return {{std::string(sameBehaviourProperty().id), Outcome::Blocked, std::nullopt,
             "the old webhook answers the same review differently each time"},
            c.planned.from,
            c.planned.to};
  StepContext context = base;
  context.input = c.batch.front();
  context.seed = c.planned.seed;
  StepResult r = differenceOf(c.planned, a, b, context);
  if (r.result.finding) {
    r.result.finding->batch = SharedObjects::own(std::vector<json>(c.batch));
    r.result.finding->caseObjects = r.result.finding->batch;
    r.result.finding->caseTo = c.planned.to;
  }
  return r;
}

// `batch` as kube-apiserver sends it: each object with its version's structural defaults.
std::vector<json> defaulted(const KindContext& kind, std::vector<json> batch, bool raw) {
  if (raw) return batch;
  for (auto& object : batch)
    if (const CrdVersion* v = kind.crd().version(objectVersion(object)))
      applyStructuralDefaults(object, v->schema);
  return batch;
}

// A diff case's result as the shrinker reads a case's: its one forward result and the call the
// new webhook answered.
CaseResult asCase(StepResult r) {
  CaseResult c;
  if (r.result.finding && !r.result.finding->exchanges.empty())
    c.forwardCall = r.result.finding->exchanges.back();
  c.forward.push_back(std::move(r.result));
  c.callCount = 2;
  return c;
}

// The cases of every ordered pair of the kind's versions, as run plans them.
std::vector<DiffCase> planCases(const KindContext& kind, const DiffConfig& config) {
  std::vector<DiffCase> cases;
  BatchMaker batches(kind);
  for (const auto& from : kind.versions())
    for (const auto& to : kind.versions()) {
      if (from == to) continue;
      PairPlan plan(PlanRequest{kind.crd().kind, from, to, kind.vias(), config.testsPerPair,
                                kListChunkObjects, config.seed});
      batches.startPair();
      for (int i = 0; i < config.testsPerPair; ++i) {
        DiffCase c{plan.next(), {}};
        c.batch = defaulted(kind, batches.make(c.planned), config.rawObjects);
        cases.push_back(std::move(c));
      }
    }
  return cases;
}

// A compared case and its result.
struct ComparedCase {
  const DiffCase* diffCase;
  StepResult result;
};

std::vector<ComparedCase> runCases(const std::vector<DiffCase>& cases, Release& oldR, Release& newR,
                                   const DiffConfig& config, const StepContext& base,
                                   DiffCalls& total) {
  std::vector<StepResult> results(cases.size());
  std::vector<DiffCalls> calls(cases.size());
  std::vector<char> done(cases.size(), 0);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    std::unique_ptr<Converter> oldCalls = oldR.open(), newCalls = newR.open();
    for (;;) {
      if (config.stopRequested && config.stopRequested->load()) return;
      const std::size_t i = next++;
      if (i >= cases.size()) return;
      results[i] = diffCase(cases[i], *oldCalls, *newCalls, base, calls[i]);
      done[i] = 1;
    }
  };
  std::vector<std::thread> threads;
  const int n = std::max(1, std::min<int>(config.jobs, static_cast<int>(cases.size())));
  for (int t = 0; t < n; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  std::vector<ComparedCase> played;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (!done[i]) continue;
    played.push_back({&cases[i], std::move(results[i])});
    total.oldCalls.add(calls[i].oldCalls);
    total.newCalls.add(calls[i].newCalls);
  }
  return played;
}

// The first failure of every problem shrunk against both webhooks as run shrinks one (shrink/:
// the batch, then each object, the same cause kept), --shrink-budget calls each and as many in
// all as the comparison made; the shrunk examples replace the first ones in `tally`.
void shrinkDifferences(const std::vector<ComparedCase>& compared, Release& oldR, Release& newR,
                       const DiffConfig& config, const StepContext& base, int requests,
                       Tally& tally) {
  const KindContext& kind = newR.kind();
  RunShrinker shrinker(kind.generators(), kind.checkers(), config.shrinkBudget);
  std::vector<ShrinkJob> jobs;
  for (const auto& c : compared) {
    if (c.result.result.outcome != Outcome::Fail) continue;
    const PlannedCase& p = c.diffCase->planned;
    for (auto& job : shrinker.select(asCase(c.result), {p.from, p.to, p.seed, &p}))
      jobs.push_back(std::move(job));
  }
  shrinker.shareBudget(requests, static_cast<int>(jobs.size()));
  RunShrinker::rank(jobs);
  std::unique_ptr<Converter> oldCalls = oldR.open(), newCalls = newR.open();
  for (const auto& job : jobs) {
    if (config.stopRequested && config.stopRequested->load()) return;
    CaseRunner run = [&](const std::vector<json>& batch, const std::string& from) {
      DiffCase c{{}, defaulted(kind, batch, config.rawObjects)};
      c.planned.from = from;
      c.planned.to = job.to;
      c.planned.seed = job.seed;
      DiffCalls calls;
      return asCase(diffCase(c, *oldCalls, *newCalls, base, calls));
    };
    ShrunkExample e = shrinker.shrink(job, run);
    tally.setProblemExample(e.problem, e.finding);
    tally.setExample(e.target.property, e.target.from, e.target.to, e.target.cause,
                     std::move(e.finding));
  }
}

ResolvedTarget resolvedTarget(const Crd& crd, const ReleaseTarget& target) {
  auto r = resolveTarget(crd, TargetChoice{target.url, target.transport, target.reviewVersion, ""});
  if (auto* error = std::get_if<std::string>(&r)) throw DiffInputError{*error};
  return std::get<ResolvedTarget>(std::move(r));
}

}  // namespace

ReleaseRun runDiff(const DiffConfig& config, std::istream& stdinStream, std::ostream& log) {
  const auto started = std::chrono::steady_clock::now();
  ReleaseRun run{startedReport(config.seed, config.commandLine), {}};
  RunReport& report = run.report;
  report.rawObjects = config.rawObjects;
  report.canonicalDateTimes = config.canonicalDateTimes;
  std::string unreached;
  try {
    LoadResult loaded = loadCrdSource(config.crdInput, stdinStream, config.cluster);
    for (const auto& w : loaded.warnings) report.warnings.push_back(w);
    for (const auto& e : loaded.errors) throw DiffInputError{e.text()};
    for (const Crd& crd : loaded.crds) {
      const bool named = namedKind(crd, config.kinds);
      if (config.kinds.empty() ? crd.versions.size() < 2 : !named) continue;
      auto compiled = KindContext::compile(
          crd, KindSettings{GeneratorOptions{FormatOptions{config.canonicalDateTimes}},
                            config.rawObjects, config.acks ? &*config.acks : nullptr});
      if (auto* error = std::get_if<KindContext::Error>(&compiled))
        throw DiffInputError{fmt::format("{}, document {}: version {}: {}", crd.source.file,
                                         crd.source.document, error->version, error->message)};
      const KindContext& kind = std::get<KindContext>(compiled);
      Release oldR("old", kind, resolvedTarget(crd, config.oldTarget), config.oldTarget.makeTarget,
                   config.jobs);
      Release newR("new", kind, resolvedTarget(crd, config.newTarget), config.newTarget.makeTarget,
                   config.jobs);
      const auto kindStarted = std::chrono::steady_clock::now();
      const std::vector<DiffCase> cases = planCases(kind, config);
      log << fmt::format("{}: {} review(s) to both webhooks\n", crd.kind, cases.size());
      const StepContext base{config.acks ? &*config.acks : nullptr, newR.schemas(), nullptr,
                             "generated", 0};
      DiffCalls calls;
      std::vector<ComparedCase> compared = runCases(cases, oldR, newR, config, base, calls);
      RunConfig forHeader;
      forHeader.acks = config.acks;
      KindReport kr = kindReportHeader(crd, newR.target(), forHeader);
      kr.notes.push_back(fmt::format("diff of the webhook at {} (old) and at {} (new)",
                                     oldR.target().url, newR.target().url));
      Tally tally({}, ConversionReach(crd));
      for (const auto& c : compared) tally.add(c.result.result, c.result.from, c.result.to);
      shrinkDifferences(compared, oldR, newR, config, base,
                        calls.oldCalls.calls + calls.newCalls.calls, tally);
      tally.fill(kr);
      kr.versions = kind.versions();
      kr.requests = calls.oldCalls.calls + calls.newCalls.calls;
      kr.objectsSent = 0;
      for (const auto& c : cases) kr.objectsSent += static_cast<int>(c.batch.size());
      kr.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - kindStarted).count();
      for (auto why :
           {unreachableReason(oldR, calls.oldCalls), unreachableReason(newR, calls.newCalls)})
        if (!why.empty()) unreached += (unreached.empty() ? "" : "\n") + why;
      report.kinds.push_back(std::move(kr));
      run.releases.push_back({crd, crd, oldR.target(), newR.target()});
      if (config.stopRequested && config.stopRequested->load()) {
        report.interrupted = true;
        break;
      }
    }
    if (report.kinds.empty())
      throw DiffInputError{
          fmt::format("{}: no CRD {}", config.crdInput,
                      config.kinds.empty() ? "with two or more versions" : "matches --kind")};
  } catch (const DiffInputError& e) {
    report.fatalError = e.message;
    report.exitCode = 2;
  }
  if (report.exitCode != 2) {
    report.fatalError = unreached;
    report.exitCode = report.interrupted              ? 130
                      : !unreached.empty()            ? 3
                      : report.failedProperties() > 0 ? 1
                                                      : 0;
  }
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return run;
}

}  // namespace convcheck
