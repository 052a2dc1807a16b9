#include "engine/run/runner.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <ostream>
#include <random>
#include <set>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/run/batch_maker.h"
#include "engine/run/batch_size_limit.h"
#include "engine/run/call_ledger.h"
#include "engine/run/case_executors.h"
#include "engine/run/case_progress.h"
#include "engine/run/case_window.h"
#include "engine/run/choke_tracker.h"
#include "engine/run/connections.h"
#include "engine/run/crd_selection.h"
#include "engine/run/crd_source.h"
#include "engine/run/kind_context.h"
#include "engine/run/kind_report_header.h"
#include "engine/run/problem_sightings.h"
#include "engine/run/run_budget.h"
#include "engine/run/run_report_header.h"
#include "engine/run/run_shard.h"
#include "engine/run/seed_objects.h"
#include "engine/run/sent_coverage.h"
#include "engine/run/shared_tally.h"
#include "engine/run/shrink_queue.h"
#include "engine/run/target_kinds.h"
#include "engine/run/target_resolution.h"
#include "engine/run/tls_evidence.h"
#include "harness/corpus/corpus_cases.h"
#include "harness/plan/seed_salts.h"
#include "kube/apiserver/group_version.h"
#include "kube/crd/crd_loader.h"
#include "kube/crd/version_roles.h"
#include "kube/go/duration.h"

namespace convcheck {
namespace {

using nlohmann::json;

// Whether this run (its --shard) runs the cases of a version pair of the kind.
using RunsPair = std::function<bool(const std::string& from, const std::string& to)>;

// One CRD kind's run: its stored and user cases, then each version pair's generated cases, each
// tallied in plan order, the first failure of every new cause shrunk beside the next cases. Pairs
// (and their stored cases) another shard runs are left out.
class KindRun {
 public:
  // `budget`: this kind's share of --duration (none: the run is bounded by --tests).
  KindRun(const KindContext& kind, const RunConfig& config, std::optional<RunBudget> budget,
          ResolvedTarget target, TargetFactory makeTarget, RunsPair runsPair)
      : kind_(kind),
        config_(config),
        budget_(budget),
        runsPair_(std::move(runsPair)),
        connections_(kind.crd(), std::move(target), std::move(makeTarget), config.jobs),
        report_(kindReportHeader(kind.crd(), connections_.target(), config)),
        tally_(config.properties, ConversionReach(kind.crd())),
        calls_(
            config.maxConsecutiveTransportFailures, connections_,
            {[this](const Exchange& ex) { tally_.latency(ex); }, [this] { executors_.haltAll(); }}),
        // One per --jobs and one more: a case is judged while the others' calls are in flight.
        executors_(kind.crd(), connections_, static_cast<std::size_t>(config.jobs) + 1,
                   caseSettings(), &sizeLimit_),
        shrinks_({kind, connections_, calls_, tally_, transport().timeout, config.jobs,
                  config.shrinkBudget, config.stopRequested, config.events,
                  config.valuesInFlight}) {}

  // Returns false when the webhook could not be reached at all (nothing tested).
  bool run() {
    for (const auto& note : kind_.notes()) report_.notes.push_back(note);
    const auto& versions = kind_.versions();
    if (versions.size() < 2) {
      report_.notes.push_back(
          "fewer than two versions with a schema: there is nothing to convert between");
      finish();
      return true;
    }
    // --duration bounds the whole run: testing, then shrinking, then the reports.
    if (budget_)
      shrinks_.setDeadline(budget_->shrinkingEnd(),
                           fmt::format("--duration {}", formatGoDuration(*config_.duration)));
    if (!config_.corpusDir.empty() || config_.clusterObjects > 0) runCorpusCases();
    int pairs = 0;  // run here, sharing --duration
    for (const auto& from : versions)
      for (const auto& to : versions) pairs += from != to && runsPair_(from, to) ? 1 : 0;
    for (const auto& from : versions) {
      for (const auto& to : versions) {
        if (from == to || calls_.stopped() || !runsPair_(from, to)) continue;
        if (!runPair(from, to, pairs--)) {
          finish();
          return false;
        }
      }
    }
    finish();
    return true;
  }

  std::string unreachableReason() const { return calls_.unreachableReason(); }
  bool interrupted() const { return calls_.interrupted(); }
  bool stoppedByTransport() const { return calls_.stoppedByTransport(); }
  int failingCases() const { return progress_.failingCases(); }
  KindReport takeReport() { return std::move(report_); }

 private:
  const TransportOptions& transport() const { return connections_.target().transport; }

  CaseSettings caseSettings() {
    CaseSettings s = kind_.caseSettings();
    s.timeout = transport().timeout;
    s.wants = [this](const std::string& p) { return tally_.wants(p); };
    s.onCall = [this](const Exchange& ex) { calls_.record(ex); };
    s.knownCauses = [this](const std::string& property, const std::string& from,
                           const std::string& to, const std::vector<Cause>& causes) {
      return tally_.knows(property, from, to, causes);
    };
    return s;
  }

  // Stored regressions and user samples (--corpus), and objects stored in the cluster
  // (--cluster-objects), run before any generated case.
  void runCorpusCases() {
    CorpusPlan plan =
        planCorpusCases(loadSeedObjects(config_, kind_.crd(), kind_.versions()), kind_.crd(),
                        kind_.versions(), kind_.generators(), kind_.checkers(), config_.seed);
    for (const auto& n : plan.notes) report_.notes.push_back(n);
    for (const auto& c : plan.cases) {
      if (calls_.stopped()) break;
      PlannedCase planned;
      planned.from = objectVersion(c.objects.front());
      planned.to = c.to;
      planned.seed = c.seed;
      if (!runsPair_(planned.from, planned.to)) continue;
      CaseResult result = executors_[0].run(c.objects, planned.from, planned.to, planned.seed);
      recordCase(planned, result, c.origin);
      progress_.storedCaseDone(result, calls_.requests());
      if (!calls_.reachable()) break;  // the first generated case reports it
    }
  }

  // A pair's generated cases, through a CaseWindow. A case whose forward conversion the webhook
  // rejected the same way ChokeTracker::kRepeats times before on this pair does not count towards
  // --tests, so the other properties still get their cases from objects that convert (up to twice
  // --tests per pair). A case is made only while the cases tallied that count plus those not yet
  // tallied are fewer than --tests: so exactly the cases a one-at-a-time run would make are made,
  // in the same order, whatever the timing. The run's first case runs alone: it tells whether the
  // webhook answers. With --duration, the pair gets an equal share of the testing time left to
  // it and the `pairsLeft` - 1 pairs after it. Returns false when it found the webhook
  // unreachable.
  bool runPair(const std::string& from, const std::string& to, int pairsLeft) {
    tell(config_.events,
         Note{Note::Level::Detail, fmt::format("{}: {} -> {}", kind_.crd().kind, from, to)});
    // Mixed batches draw their other objects from versions objects can be stored in.
    std::vector<std::string> sources;
    for (const auto& v : kind_.versions())
      if (v == from || v == to || !report_.warningVersions.count(v)) sources.push_back(v);
    PairPlan plan(PlanRequest{kind_.crd().kind, from, to, sources, config_.testsPerPair,
                              config_.maxBatchSize, config_.seed});
    batches_.startPair();
    chokes_.startPair();
    const bool timed = budget_.has_value();
    const auto pairStart = std::chrono::steady_clock::now();
    // Recomputed as cases start: testing's end moves earlier once a problem waits to be shrunk.
    auto deadline = [&] {
      return RunBudget::shareEnd(pairStart, budget_->testingEnd(shrinks_.hasPending()), pairsLeft);
    };
    const int limit =
        timed && !config_.testsGiven ? std::numeric_limits<int>::max() : config_.testsPerPair;
    const long long maxCases = 2LL * limit;
    int done = 0;
    long long made = 0;
    CaseWindow window(executors_, {static_cast<std::size_t>(config_.jobs), config_.pipelinedValues,
                                   config_.valuesInFlight});
    CaseWindow::Steps steps;
    steps.make = [&](std::size_t inFlight) -> std::optional<PreparedCase> {
      if ((progress_.beforeFirstCase() && inFlight > 0) ||
          done + static_cast<long long>(inFlight) >= limit || made >= maxCases ||
          !mayStartCase(timed && made > 0, deadline))
        return std::nullopt;
      ++made;
      PreparedCase p;
      p.planned = plan.next();
      // Once a batch timed out for the pair, larger batches of it are not sent (BatchSizeLimit):
      // none is drawn, and a case made before a timeout is cut as it is sent (CaseWindow).
      const std::size_t cap = sizeLimit_.cap(from, to);
      if (p.planned.sourceVersions.size() > cap) p.planned.sourceVersions.resize(cap);
      p.batch = batches_.make(p.planned);
      p.planned.sourceVersions.resize(p.batch.size());  // a LIST chunk stops at its byte cap
      p.values = jsonValues(p.batch);
      return p;
    };
    steps.stopped = [this] { return calls_.stopped(); };
    steps.tally = [&](const PlannedCase& planned, CaseResult& result) {
      if (progress_.limitReached()) return true;  // started before --max-failures was reached
      bisectRefusedBatch(planned, result);
      recordCase(planned, result);
      done += chokes_.count(planned.from, result.forwardCall.get()) ? 0 : 1;
      const bool first = progress_.beforeFirstCase();
      progress_.caseDone(result, calls_.requests());
      if (!first) return true;
      if (!calls_.reachable()) return false;
      checkEndpoint();
      return true;
    };
    return window.run(steps);
  }

  // `timed`: whether the deadline applies (a pair's first case starts whatever the time, so every
  // pair is tested).
  bool mayStartCase(bool timed,
                    const std::function<std::chrono::steady_clock::time_point()>& deadline) {
    if (calls_.stopped()) return false;
    if (progress_.limitReached()) {
      calls_.stop(progress_.limitNote());
      return false;
    }
    if (config_.stopRequested && config_.stopRequested->load()) {
      calls_.interrupt();
      return false;
    }
    return !timed || progress_.beforeFirstCase() || std::chrono::steady_clock::now() < deadline();
  }

  void recordCase(const PlannedCase& planned, CaseResult& result,
                  const std::string& origin = "generated") {
    if (!calls_.reachable()) return;
    tally_.addCase(result, planned.from, planned.to);
    coverage_.addCase(planned.from, planned.to, result);
    shrinks_.add(planned, result, origin);
    tellNewProblems(result, planned.from, planned.to);
  }

  // The problems this case shows that no case before it showed, as events.
  void tellNewProblems(const CaseResult& result, const std::string& from, const std::string& to) {
    if (!config_.events) return;
    for (auto& s : problemSightings(result, from, to))
      if (problemsSeen_.insert(s.problem).second)
        config_.events(
            ProblemFound{kind_.crd().kind, s.problem, s.property, s.from, s.to, s.title});
  }

  // The registry's Endpoint-scope properties (tls), judged once on the webhook's endpoint.
  void checkEndpoint() {
    for (const CheckResult& result : endpointResults(
             connections_.target(), [this](const std::string& id) { return tally_.wants(id); }))
      tally_.add(result, "", "");
  }

  // A forward call refused for its size (HTTP 413, a dropped connection) is sent again with fewer
  // of its objects, bisecting to the size at which refusals start (once per pair); the report
  // says it with the findings. The calls count as requests but not for the circuit breaker.
  void bisectRefusedBatch(const PlannedCase& planned, const CaseResult& result) {
    const ExchangeRef& forward = result.forwardCall;
    if (!forward || !sizeLimit_.wantsBisection(planned.from, planned.to, *forward)) return;
    std::unique_ptr<Converter> converter = connections_.open();
    std::mt19937_64 uids(salted(planned.seed, SeedSalt::SizeBisectionUids));
    sizeLimit_.bisect(planned.from, planned.to, *forward, requestBodyOf(*forward).size(),
                      [&](std::size_t objects) {
                        std::vector<std::size_t> first(objects);
                        std::iota(first.begin(), first.end(), std::size_t{0});
                        Exchange ex =
                            converter->convert(forward->sent.objects.pick(first), planned.to, uids);
                        calls_.count(ex);
                        return SizeProbe{sizeRefusal(ex).has_value(), requestBodyOf(ex).size()};
                      });
  }

  void finish() {
    // Without --duration, shrinking takes at most as long as testing took (at least
    // kShrinkTimeFloor), as it makes at most as many calls: a webhook whose answers grow with
    // each call does not stretch the run.
    if (!budget_) {
      const auto now = std::chrono::steady_clock::now();
      const auto testing = std::chrono::duration_cast<std::chrono::milliseconds>(now - started_);
      shrinks_.setDeadline(now + std::max<std::chrono::milliseconds>(testing, kShrinkTimeFloor),
                           fmt::format("as long as testing took ({:.0f} s), at least 30 s",
                                       testing.count() / 1000.0));
    }
    std::string shrinkNote = shrinks_.drain();
    calls_.fill(report_);
    if (!shrinkNote.empty()) report_.notes.push_back(std::move(shrinkNote));
    for (auto& note : chokes_.notes()) report_.notes.push_back(std::move(note));
    // Validation rules objects could not be made to satisfy, once per run with their share.
    for (const auto& [version, generator] : kind_.generators())
      for (auto& note : generator.ruleNotes())
        report_.notes.push_back("version " + version + ": " + std::move(note));
    tally_.fill(report_);
    coverage_.fill(report_);
    sizeLimit_.describe(report_);
    report_.versions = kind_.versions();
  }

  const KindContext& kind_;
  const RunConfig& config_;
  const std::optional<RunBudget> budget_;
  RunsPair runsPair_;
  Connections connections_;  // the target, the run's request slots
  KindReport report_;        // before tally_, which takes its warning-only versions
  SharedTally tally_;
  BatchSizeLimit sizeLimit_;  // batch sizes the webhook times out on or refuses, per pair
  CallLedger calls_;
  CaseExecutors executors_;
  BatchMaker batches_{kind_, transport().maxResponseBytes / 2};
  ChokeTracker chokes_;
  SentCoverage coverage_{kind_};                      // what the tallied cases sent
  CaseProgress progress_{config_, kind_.crd().kind};  // the first case, --max-failures
  std::set<std::string> problemsSeen_;                // told as ProblemFound
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  ShrinkQueue shrinks_;  // last: running shrinks use the members above
};

}  // namespace

RunReport failedToLoad(const RunConfig& config, const LoadResult& loaded) {
  ReportClock clock(config);
  RunReport& report = clock.report();
  for (const auto& w : loaded.warnings) report.warnings.push_back(w);
  for (const auto& e : loaded.errors)
    report.fatalError += (report.fatalError.empty() ? "" : "\n") + e.text();
  return clock.finish(2);
}

namespace {

// The selected kinds run one after another, each through its target; returns the exit code.
class KindsRun {
 public:
  KindsRun(const RunConfig& config, WebhookAccess& access, RunReport& report)
      : config_(config), perKind_(config), access_(access), report_(report) {}

  int run(const std::vector<const Crd*>& selected, const RunShard& shard) {
    // a --duration is shared by every kind this shard runs, from when the run began
    if (config_.duration)
      budget_ =
          RunBudget(config_.started.value_or(std::chrono::steady_clock::now()), *config_.duration);
    kindsLeft_ = shard.kindsRun();
    for (const Crd* crd : selected) {
      if (!shard.runsKind(*crd)) continue;
      auto target = access_.forKind(*crd);
      if (auto* error = std::get_if<AccessError>(&target)) {
        if (error->exitCode != 3) return fail(error->message);
        unreachable_.push_back(error->message);  // this kind's port-forward: the next may work
        continue;
      }
      auto compiled = KindContext::compile(
          *crd, KindSettings{GeneratorOptions{FormatOptions{config_.canonicalDateTimes}},
                             config_.rawObjects, config_.acks ? &*config_.acks : nullptr});
      if (auto* error = std::get_if<KindContext::Error>(&compiled))
        return fail(fmt::format("{}, document {}: version {}: {}", crd->source.file,
                                crd->source.document, error->version, error->message));
      const int order =
          static_cast<int>(std::find(selected.begin(), selected.end(), crd) - selected.begin());
      if (!runKind(std::get<KindContext>(compiled), std::get<KindTarget>(target), shard, order))
        break;
    }
    for (const auto& u : unreachable_)
      report_.fatalError += (report_.fatalError.empty() ? "" : "\n") + u;
    if (report_.interrupted) return kInterruptedExitCode;
    if (!anyTested_) return 3;
    return report_.failedProperties() > 0 ? 1 : 0;
  }

 private:
  int fail(const std::string& message) {
    report_.fatalError = message;
    return 2;
  }

  // Runs one kind; returns false when the run stops there (interrupted, --max-failures).
  // `order` is the kind's place in the run (every shard's).
  bool runKind(const KindContext& kind, const KindTarget& target, const RunShard& shard,
               int order) {
    const Crd& crd = kind.crd();
    std::optional<RunBudget> kindBudget;
    if (budget_) kindBudget = budget_->rest(std::chrono::steady_clock::now(), kindsLeft_);
    --kindsLeft_;
    KindRun run(kind, perKind_, kindBudget, target.target(), access_.targets(),
                [&shard, &crd](const std::string& from, const std::string& to) {
                  return shard.runsPair(crd, from, to);
                });
    const auto started = std::chrono::steady_clock::now();
    const bool reached = run.run();
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - started;
    // Calls after it ended failed for that reason, not the webhook's. When calls failed at the
    // transport level, kubectl may still be writing its error: it gets a moment to end (not after
    // an interrupt, --duration or --max-failures: the forward is then healthy).
    constexpr std::chrono::seconds kForwardGrace{2};
    const auto forwardEnded = target.endedEarly(
        !reached || run.stoppedByTransport() ? kForwardGrace : std::chrono::seconds(0));
    if (forwardEnded && reached) report_.warnings.push_back(crd.name + ": " + *forwardEnded);
    if (reached)
      anyTested_ = true;
    else
      unreachable_.push_back(
          fmt::format("{}: could not reach the webhook: {}{}", crd.name,
                      explainUnreachable(target.target(), run.unreachableReason()),
                      forwardEnded ? " (" + *forwardEnded + ")" : ""));
    report_.kinds.push_back(run.takeReport());
    report_.kinds.back().seconds = seconds.count();
    report_.kinds.back().order = order;
    if (run.interrupted()) {
      report_.interrupted = true;
      return false;
    }
    if (perKind_.maxFailingCases > 0) {  // the limit is the whole run's
      perKind_.maxFailingCases -= run.failingCases();
      if (perKind_.maxFailingCases <= 0) return false;
    }
    return true;
  }

  const RunConfig& config_;
  RunConfig perKind_;                // --max-failures is shared by every kind
  std::optional<RunBudget> budget_;  // --duration, shared by every kind
  int kindsLeft_ = 0;                // kinds of this shard not run yet
  WebhookAccess& access_;
  RunReport& report_;
  bool anyTested_ = false;
  std::vector<std::string> unreachable_;
};

}  // namespace

RunReport runConformance(const RunConfig& config, const LoadResult& loaded, WebhookAccess& access) {
  ReportClock clock(config);
  RunReport& report = clock.report();
  for (const auto& w : loaded.warnings) report.warnings.push_back(w);
  std::vector<const Crd*> selected = selectCrds(loaded.crds, config.kinds, !config.url.empty());
  if (selected.empty()) {
    report.fatalError =
        noCrdSelected(config.crdInput, loaded.crds, config.kinds, !config.url.empty());
    return clock.finish(2);
  }
  if (config.portForward)
    for (const Crd* crd : selected)
      if (auto error = portForwardUnsupported(*crd); !error.empty()) {
        report.fatalError = error;
        return clock.finish(2);
      }

  const RunShard shard(selected, config.shardIndex, config.shardCount);
  report.shardIndex = config.shardIndex;
  report.shardCount = config.shardCount;
  report.shardPairs = shard.unitsRun();
  report.runPairs = shard.units();
  if (shard.unitsRun() == 0) {
    report.warnings.push_back(fmt::format(
        "shard {}/{}: the run has {} (kind, version pair)s, none of them for this shard: "
        "nothing to run",
        config.shardIndex + 1, config.shardCount, shard.units()));
    return clock.finish(0);
  }
  return clock.finish(KindsRun(config, access, report).run(selected, shard));
}

}  // namespace convcheck
