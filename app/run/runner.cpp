#include "app/run/runner.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <future>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <ostream>
#include <random>
#include <thread>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <rapidcheck.h>

#include "app/run/batch_size_limit.h"
#include "app/run/choke_tracker.h"
#include "app/run/crd_source.h"
#include "app/run/freed_memory.h"
#include "app/run/kind_context.h"
#include "app/run/kind_report_header.h"
#include "app/run/tally.h"
#include "app/run/target_resolution.h"
#include "app/run/transport_breaker.h"
#include "harness/cluster/cluster_reads.h"
#include "harness/corpus/corpus_cases.h"
#include "harness/plan/planned_batch.h"
#include "harness/plan/test_plan.h"
#include "harness/transport/converter.h"
#include "harness/transport/request_gate.h"
#include "harness/transport/tls_inspect.h"
#include "kube/apiserver/group_version.h"
#include "kube/crd/crd_loader.h"
#include "kube/crd/version_roles.h"
#include "properties/case_executor.h"
#include "properties/checks/tls.h"
#include "shrink/run_shrinker.h"

namespace convcheck {
namespace {

using nlohmann::json;

// Shrinking a transport failure (a timeout) stops after this many failed calls in a row.
constexpr int kShrinkTransportFailuresInARow = 2;
// Objects in a chunk of cases from which on the memory they freed is handed back to the system.
constexpr std::size_t kTrimAfterObjects = 32;
// Values (objects, arrays, scalars) in a JSON document, counted recursively.
std::size_t jsonValues(const json& value) {
  std::size_t n = 1;
  if (value.is_structured())
    for (const auto& child : value) n += jsonValues(child);
  return n;
}

struct InputError {
  std::string message;
};

// Everything needed to test one CRD.
class KindRun {
 public:
  KindRun(const KindContext& kind, const RunConfig& config, ResolvedTarget target,
          TargetFactory makeTarget, std::ostream& log)
      : crd_(kind.crd()),
        kind_(kind),
        config_(config),
        log_(log),
        target_(std::move(target)),
        transport_(target_.transport),
        makeTarget_(std::move(makeTarget)),
        converter_(crd_, makeTarget_(target_), target_.reviewVersion),
        report_(kindReportHeader(crd_, target_, config_)),
        tally_(config.properties, ConversionReach(crd_)),
        executor_(
            crd_, converter_, transport_.timeout,
            [this](const std::string& p) { return tally_.wants(p); },
            [this](const Exchange& ex) { onCall(ex); }) {
    converter_.setGate(&gate_);
    setKnownCauses(executor_);
  }

  // Returns false when the webhook could not be reached at all (nothing tested).
  bool run() {
    compileGenerators();
    if (versions_.size() < 2) {
      report_.notes.push_back(
          "fewer than two versions with a schema: there is nothing to convert between");
      finish();
      return true;
    }
    const int pairs = static_cast<int>(versions_.size() * (versions_.size() - 1));
    const bool timed = config_.duration.has_value();
    const int limit =
        timed && !config_.testsGiven ? std::numeric_limits<int>::max() : config_.testsPerPair;
    if (!config_.corpusDir.empty() || config_.clusterObjects > 0) runCorpusCases();
    for (const auto& from : versions_) {
      for (const auto& to : versions_) {
        if (from == to || stopped_) continue;
        // Mixed batches draw their other objects from versions objects can be stored in.
        std::vector<std::string> sources;
        for (const auto& v : versions_)
          if (v == from || v == to || !report_.warningVersions.count(v)) sources.push_back(v);
        PlanRequest request{
            crd_.kind, from, to, sources, config_.testsPerPair, config_.maxBatchSize, config_.seed};
        log_ << fmt::format("{}: {} -> {}\n", crd_.kind, from, to);
        PairPlan plan(request);
        identities_.clear();
        chokes_.startPair();
        auto deadline = std::chrono::steady_clock::now() +
                        (timed ? *config_.duration / pairs : std::chrono::milliseconds(0));
        if (!runPair(plan, limit, 2LL * limit, timed, deadline)) {
          finish();
          return false;
        }
      }
    }
    finish();
    return true;
  }

  const std::string& unreachableReason() const { return unreachableReason_; }
  bool interrupted() const { return interrupted_; }
  int failingCases() const { return failingCases_; }
  KindReport takeReport() { return std::move(report_); }

 private:
  void compileGenerators() {
    for (const auto& note : kind_.notes()) report_.notes.push_back(note);
    versions_ = kind_.versions();
    kind_.configure(executor_);
    for (int k = 0; k < config_.jobs; ++k) {
      Worker w;
      w.converter = newConverter();
      w.executor = std::make_unique<CaseExecutor>(
          crd_, *w.converter, transport_.timeout,
          [this](const std::string& p) { return tally_.wants(p); },
          [this](const Exchange& ex) { onCall(ex); });
      kind_.configure(*w.executor);
      setKnownCauses(*w.executor);
      workers_.push_back(std::move(w));
    }
  }

  std::vector<json> makeBatch(PlannedCase& planned) {
    std::vector<json> batch;
    std::vector<std::size_t> slots;
    // A LIST chunk of large objects stops at half of --max-response-size: the answer holds about
    // as much, and a larger one would be reported as too large although the API server takes it.
    std::size_t bytes = 0;
    const std::size_t maxBytes = transport_.maxResponseBytes / 2;
    for (std::size_t j = 0; j < planned.sourceVersions.size(); ++j) {
      const auto& version = planned.sourceVersions[j];
      json object = plannedObject(kind_.generators().at(version), planned, j);
      if (planned.listChunk && (bytes += object.dump().size()) > maxBytes && j > 0) {
        planned.sourceVersions.resize(j);
        break;
      }
      object["apiVersion"] = crd_.apiVersion(version);
      object["kind"] = crd_.kind;
      auto& meta = object["metadata"];
      if (j == 0 && planned.sameIdentityAs) {
        auto earlier = identities_.find(*planned.sameIdentityAs);
        if (earlier != identities_.end())
          for (auto item = earlier->second.begin(); item != earlier->second.end(); ++item)
            meta[item.key()] = item.value();
      }
      batch.push_back(std::move(object));
      slots.push_back(j);
    }
    // Identity must be unique inside one batch, as it is in a real LIST.
    batch = uniqueIdentities(std::move(batch), slots, planned.seed);
    json identity = json::object();
    for (const char* key : {"namespace", "name", "uid"})
      if (batch.front()["metadata"].contains(key)) identity[key] = batch.front()["metadata"][key];
    identities_[planned.index] = identity;
    return batch;
  }

  // A case's executor asks the tally, which only holds cases earlier in plan order than the ones
  // running: a failure whose causes it knows is never an example, whenever its case is tallied.
  void setKnownCauses(CaseExecutor& executor) {
    executor.setKnownCauses([this](const std::string& property, const std::string& from,
                                   const std::string& to, const std::vector<Cause>& causes) {
      std::lock_guard<std::mutex> lock(tallyMutex_);
      return tally_.knows(property, from, to, causes);
    });
  }

  void onCall(const Exchange& ex) {
    sizeLimit_.observe(ex);
    std::lock_guard<std::mutex> lock(callMutex_);
    ++report_.requests;
    report_.objectsSent += static_cast<int>(ex.sent.objects.size());
    if (ex.http.ok()) {
      reachable_ = true;
      breaker_.answered(ex);
      tally_.latency(objectVersion(ex.sent.objects.front()),
                     objectVersion(json{{"apiVersion", ex.sent.desiredApiVersion}}),
                     ex.sent.objects.size(), ex.http.elapsed.count() / 1000.0);
      return;
    }
    // A webhook that took the call and then answered too late, too much or not in HTTP was
    // tested (its answer is a finding); only failing to connect or to complete TLS means that
    // nothing could be tested.
    const TransportErrorKind kind = ex.http.transportErrorKind;
    const bool tookTheCall = kind == TransportErrorKind::Timeout ||
                             kind == TransportErrorKind::TooLarge ||
                             kind == TransportErrorKind::Protocol;
    if (!reachable_ && unreachableReason_.empty() && !tookTheCall)
      unreachableReason_ = ex.http.transportError;
    if (tookTheCall) reachable_ = true;
    if (stopped_) return;
    switch (breaker_.failed()) {
      case TransportBreaker::Decision::Continue:
        return;
      case TransportBreaker::Decision::StillAnswers:
        report_.notes.push_back(
            "the webhook failed several calls in a row at the transport level (a crash on some "
            "inputs?) but still converts objects it converted before: testing went on");
        return;
      case TransportBreaker::Decision::Stop:
        break;
    }
    stopped_ = true;
    executor_.halt();
    for (auto& w : workers_) w.executor->halt();
    report_.notes.push_back(
        fmt::format("stopped after {} consecutive failed calls: the webhook is not answering ({})",
                    breaker_.failuresInARow(), ex.http.transportError));
  }

  // The breaker's probe: an earlier accepted request sent again through a connection of its own.
  // Called with callMutex_ held.
  Exchange probe(const SentReview& sent) {
    if (!probeConverter_) probeConverter_ = newConverter();
    Exchange probe = probeConverter_->convert(
        sent.objects, objectVersion(json{{"apiVersion", sent.desiredApiVersion}}), probeUids_);
    ++report_.requests;
    report_.objectsSent += static_cast<int>(probe.sent.objects.size());
    return probe;
  }

  // What a case's thread hands back: set under slotsMutex_.
  struct CaseOutcome {
    bool done = false;
    CaseResult result;
    std::exception_ptr error;
  };
  // A case made (its batch drawn, in plan order) and not started yet.
  struct PreparedCase {
    PlannedCase planned;
    std::vector<json> batch;
    std::size_t values = 0;  // JSON values in the batch: what the case's memory grows with
  };
  // A case running, or run and waiting to be tallied, on a thread of its own (joined when the
  // case is dropped, also when an error leaves the pair early).
  struct CaseInFlight {
    PlannedCase planned;
    std::size_t objects = 0;
    std::size_t values = 0;
    std::shared_ptr<CaseOutcome> outcome;
    std::jthread thread;
  };

  // Runs a pair's cases: --jobs + 1 at once (one executor each), while their calls share --jobs
  // request slots (the gate), so one case is judged while the others' requests are in flight. A
  // case starts as soon as an executor is free, and cases are tallied in plan order: at most twice
  // the executors are in flight or wait to be tallied, and beyond --jobs of them only while their
  // batches are small (RunConfig::pipelinedValues), so that large batches hold no more memory than
  // --jobs cases did before the extra case. A case whose forward conversion the webhook rejected
  // the same way ChokeTracker::kRepeats times before on this pair does not count towards --tests,
  // so the other properties still get their cases from objects that convert (up to `maxCases`,
  // twice --tests, per pair). A case is made only while the cases tallied that count plus those
  // not yet tallied are fewer than --tests: so exactly the cases a one-at-a-time run would make
  // are made, in the same order, whatever the timing. Returns false when the run's first case
  // found the webhook unreachable.
  bool runPair(PairPlan& plan, int limit, long long maxCases, bool timed,
               std::chrono::steady_clock::time_point deadline) {
    std::deque<CaseInFlight> window;
    {
      std::lock_guard<std::mutex> lock(slotsMutex_);
      freeSlots_.clear();
      for (std::size_t slot = executors(); slot-- > 0;)
        freeSlots_.push_back(static_cast<int>(slot));
    }
    const std::size_t maxWindow = 2 * executors();
    std::size_t valuesInWindow = 0;
    std::optional<PreparedCase> next;
    int done = 0;
    long long made = 0;
    std::size_t objectsSinceTrim = 0;
    int casesSinceTrim = 0;
    for (;;) {
      // Whether `next` may start once an executor is free (it waits for a tally otherwise).
      bool startable = false;
      for (;;) {
        if (!next && (!firstCase_ || window.empty()) &&
            done + static_cast<long long>(window.size()) < limit && made < maxCases &&
            mayStartCase(timed, deadline)) {
          next = prepareCase(plan.next());
          ++made;
        }
        startable = next && !stopped_ && window.size() < maxWindow &&
                    (window.empty() || valuesInWindow + next->values <= config_.valuesInFlight) &&
                    (window.size() < static_cast<std::size_t>(config_.jobs) ||
                     valuesInWindow + next->values <= config_.pipelinedValues);
        int slot = -1;
        if (startable) {
          std::lock_guard<std::mutex> lock(slotsMutex_);
          if (!freeSlots_.empty()) {
            slot = freeSlots_.back();
            freeSlots_.pop_back();
          }
        }
        if (slot < 0) break;
        valuesInWindow += next->values;
        window.push_back(startCase(std::move(*next), slot));
        next.reset();
      }
      if (window.empty()) return true;
      {
        // The earliest case to tally, or (when the next case may start) a free executor.
        std::unique_lock<std::mutex> lock(slotsMutex_);
        const CaseOutcome& front = *window.front().outcome;
        caseFinished_.wait(lock, [&] { return front.done || (startable && !freeSlots_.empty()); });
        if (!front.done) continue;
      }
      CaseInFlight c = std::move(window.front());
      window.pop_front();
      valuesInWindow -= c.values;
      c.thread.join();
      if (c.outcome->error) std::rethrow_exception(c.outcome->error);
      if (failureLimitReached()) continue;  // started before --max-failures was reached
      {
        CaseResult result = std::move(c.outcome->result);
        c.outcome.reset();
        bisectRefusedBatch(c.planned, result);
        recordCase(c.planned, result);
        done += chokes_.count(c.planned.from, result.forwardCall.get()) ? 0 : 1;
        tellCaseDone(result);
      }
      if (firstCase_) {
        firstCase_ = false;
        if (!reachable_) return false;
        checkTls();
      }
      // A case of large objects holds its batch as sent and as a client sees it after each call,
      // plus the answers' texts; the allocator keeps what they freed for a while. Handing it back
      // every --jobs cases keeps a long run's memory at what the cases in flight need instead of
      // the most they ever needed; cases of single objects free little and are not worth the
      // system calls.
      objectsSinceTrim += c.objects;
      if (++casesSinceTrim >= config_.jobs) {
        if (objectsSinceTrim >= kTrimAfterObjects) releaseFreedMemory();
        objectsSinceTrim = 0;
        casesSinceTrim = 0;
      }
    }
  }

  bool mayStartCase(bool timed, std::chrono::steady_clock::time_point deadline) {
    if (stopped_) return false;
    if (failureLimitReached()) {
      stopped_ = true;
      std::lock_guard<std::mutex> lock(callMutex_);  // shrinks may be adding notes
      report_.notes.push_back(fmt::format(
          "stopped after {} failing case(s) (--max-failures): results cover the cases run so far",
          config_.maxFailingCases));
      return false;
    }
    if (config_.stopRequested && config_.stopRequested->load()) {
      interrupted_ = true;
      stopped_ = true;
      std::lock_guard<std::mutex> lock(callMutex_);  // shrinks may be adding notes
      report_.notes.push_back("interrupted: results cover the cases run so far");
      return false;
    }
    return !timed || firstCase_ || std::chrono::steady_clock::now() < deadline;
  }

  bool failureLimitReached() const {
    return config_.maxFailingCases > 0 && failingCases_ >= config_.maxFailingCases;
  }

  // Counts a failing case and tells config_.onCaseDone.
  void tellCaseDone(const CaseResult& result) {
    bool failed = false;
    for (const auto* part : {&result.forward, &result.backward, &result.composite})
      for (const CheckResult& check : *part) failed |= check.outcome == Outcome::Fail;
    failingCases_ += failed ? 1 : 0;
    if (!config_.onCaseDone) return;
    long long requests = 0;
    {
      std::lock_guard<std::mutex> lock(callMutex_);
      requests = report_.requests;
    }
    config_.onCaseDone(CaseDone{crd_.kind, failed, requests});
  }

  // Makes the case's batch (in plan order: the batches depend on earlier ones' identities).
  PreparedCase prepareCase(PlannedCase planned) {
    // Once a batch timed out for the pair, larger batches of it are not sent (BatchSizeLimit).
    const std::size_t cap = sizeLimit_.cap(planned.from, planned.to);
    if (planned.sourceVersions.size() > cap) planned.sourceVersions.resize(cap);
    PreparedCase p;
    p.batch = makeBatch(planned);
    for (const auto& object : p.batch) p.values += jsonValues(object);
    p.planned = std::move(planned);
    return p;
  }

  // A forward call refused for its size (HTTP 413, a dropped connection) is sent again with fewer
  // of its objects, bisecting to the size at which refusals start (once per pair); the report
  // says it with the findings. The calls count as requests but not for the circuit breaker.
  void bisectRefusedBatch(const PlannedCase& planned, const CaseResult& result) {
    const ExchangeRef& forward = result.forwardCall;
    if (!forward || !sizeLimit_.wantsBisection(planned.from, planned.to, *forward)) return;
    std::unique_ptr<Converter> converter = newConverter();
    std::mt19937_64 uids(planned.seed ^ 0xb15ec7ull);
    sizeLimit_.bisect(planned.from, planned.to, *forward, requestBodyOf(*forward).size(),
                      [&](std::size_t objects) {
                        std::vector<std::size_t> first(objects);
                        std::iota(first.begin(), first.end(), std::size_t{0});
                        Exchange ex =
                            converter->convert(forward->sent.objects.pick(first), planned.to, uids);
                        {
                          std::lock_guard<std::mutex> lock(callMutex_);
                          ++report_.requests;
                          report_.objectsSent += static_cast<int>(objects);
                        }
                        return SizeProbe{sizeRefusal(ex).has_value(), requestBodyOf(ex).size()};
                      });
  }

  // Runs a prepared case on `slot`'s executor, which is free again (and the outcome done) when
  // the thread ends.
  CaseInFlight startCase(PreparedCase prepared, int slot) {
    CaseInFlight c;
    std::vector<json> batch = std::move(prepared.batch);
    c.objects = batch.size();
    c.values = prepared.values;
    c.planned = std::move(prepared.planned);
    c.outcome = std::make_shared<CaseOutcome>();
    c.thread = std::jthread([this, slot, outcome = c.outcome, batch = std::move(batch),
                             planned = c.planned]() mutable {
      CaseResult result;
      std::exception_ptr error;
      try {
        result = executorFor(slot).run(std::move(batch), planned.from, planned.to, planned.seed);
      } catch (...) {
        error = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(slotsMutex_);
        outcome->result = std::move(result);
        outcome->error = error;
        outcome->done = true;
        freeSlots_.push_back(slot);
      }
      caseFinished_.notify_all();
    });
    return c;
  }

  // Case executors: one per case in flight, each with its own connection.
  std::size_t executors() const { return workers_.size() + 1; }

  CaseExecutor& executorFor(int worker) {
    return worker == 0 ? executor_ : *workers_.at(worker - 1).executor;
  }

  // Up to --cluster-objects stored objects of each served version, read from the cluster, join
  // the samples; a list that cannot be read is a note.
  void addClusterObjects(CorpusContents& contents) {
    for (const auto& version : versions_) {
      const CrdVersion* v = crd_.version(version);
      if (v == nullptr || !v->served) continue;
      StoredObjects read =
          readStoredObjects(config_.cluster, crd_, version, config_.clusterObjects);
      if (!read.error.empty())
        report_.notes.push_back("--cluster-objects: " + read.error);
      else
        report_.notes.push_back(fmt::format("--cluster-objects: read {} stored object(s) at {}",
                                            read.objects.size(), version));
      for (auto& object : read.objects) {
        const auto& metadata = object.value("metadata", nlohmann::json::object());
        std::string name = metadata.value("namespace", std::string());
        name += (name.empty() ? "" : "/") + metadata.value("name", std::string());
        contents.samples.push_back(
            StoredSample{fmt::format("cluster {} {}", version, name), version, std::move(object)});
      }
    }
  }

  // Stored regressions and user samples (--corpus), and objects stored in the cluster
  // (--cluster-objects), run before any generated case.
  void runCorpusCases() {
    CorpusContents contents =
        config_.corpusDir.empty() ? CorpusContents{} : CorpusStore(config_.corpusDir).load(crd_);
    if (config_.clusterObjects > 0) addClusterObjects(contents);
    CorpusPlan plan = planCorpusCases(contents, crd_, versions_, kind_.generators(),
                                      kind_.checkers(), config_.seed);
    for (const auto& n : plan.notes) report_.notes.push_back(n);
    for (const auto& c : plan.cases) {
      if (stopped_) break;
      PlannedCase planned;
      planned.from = objectVersion(c.objects.front());
      planned.to = c.to;
      planned.seed = c.seed;
      CaseResult result = executor_.run(c.objects, planned.from, planned.to, planned.seed);
      recordCase(planned, result, c.origin);
      if (!reachable_) break;  // the first generated case reports it
    }
  }

  // The first failure of every new problem is shrunk against the webhook (shrink/): the problems
  // are chosen here in case order, and shrunk when testing is done (shrinkProblems).
  void shrinkNewFailures(const PlannedCase& planned, const CaseResult& result,
                         const std::string& origin) {
    int requestsSoFar = 0;
    {
      std::lock_guard<std::mutex> lock(callMutex_);
      requestsSoFar = report_.requests;
    }
    RunShrinker::CaseInfo info{planned.from, planned.to,
                               planned.seed, origin == "generated" ? &planned : nullptr,
                               origin,       requestsSoFar};
    for (auto& job : shrinker_.select(result, info)) pendingShrinks_.push_back(std::move(job));
  }

  // Once testing is done, the shrinks share as many calls as it made (so at most half of the
  // run's), most severe problems first; they run at most --jobs at once, each with its own
  // connection, and their examples are tallied in that order.
  void shrinkProblems() {
    int testingRequests = 0;
    {
      std::lock_guard<std::mutex> lock(callMutex_);
      testingRequests = report_.requests;
    }
    shrinker_.shareBudget(testingRequests, static_cast<int>(pendingShrinks_.size()));
    RunShrinker::rank(pendingShrinks_);
    for (auto& job : pendingShrinks_) {
      while (static_cast<int>(shrinks_.size()) >= config_.jobs) collectShrink();
      shrinks_.push_back(std::async(std::launch::async, [this, job = std::move(job)] {
        std::unique_ptr<Converter> converter = newConverter();
        return shrinker_.shrink(job, shrinkRunner(job, *converter));
      }));
    }
    pendingShrinks_.clear();
    drainShrinks();
    if (shrinker_.sharedBudgetHit())
      report_.notes.push_back(fmt::format(
          "shrinking stopped at its share of the run ({} calls, as many as testing made): some "
          "counterexamples are not minimal, or not shrunk at all",
          testingRequests));
  }

  void collectShrink() {
    ShrunkExample e = shrinks_.front().get();
    shrinks_.pop_front();
    std::lock_guard<std::mutex> lock(tallyMutex_);
    tally_.setProblemExample(e.problem, e.finding);
    tally_.setExample(e.target.property, e.target.from, e.target.to, e.target.cause,
                      std::move(e.finding));
  }

  void drainShrinks() {
    while (!shrinks_.empty()) collectShrink();
  }

  // Runs a changed batch as the job's case, through `converter` (used by this shrink only).
  CaseRunner shrinkRunner(const ShrinkJob& job, Converter& converter) {
    auto failedInARow = std::make_shared<int>(0);
    return [this, &converter, target = job.target, to = job.to, seed = job.seed, failedInARow](
               const std::vector<json>& batch, const std::string& from) {
      // When the failure is itself a transport failure (a timeout), failing calls are expected
      // and must not trip the circuit breaker; the shrink budget bounds them. A webhook that
      // keeps not answering is not worth minimising against: each such call costs a whole
      // timeout, so the shrink stops after kShrinkTransportFailuresInARow of them.
      const bool transportFailure = target.signature.rfind("transport", 0) == 0;
      CaseExecutor executor(
          crd_, converter, transport_.timeout,
          [target](const std::string& p) { return caseNeeds(target, p); },
          [this, transportFailure, failedInARow](const Exchange& ex) {
            *failedInARow = ex.http.ok() ? 0 : *failedInARow + 1;
            if (!transportFailure) return onCall(ex);
            std::lock_guard<std::mutex> lock(callMutex_);
            ++report_.requests;
            report_.objectsSent += static_cast<int>(ex.sent.objects.size());
          });
      kind_.configure(executor);
      // A stopped run ends shrinks, except of transport failures, which bound themselves: the
      // run stops because of such failures, and their example is still worth its few calls.
      if ((stopped_ && !transportFailure) ||
          (config_.stopRequested && config_.stopRequested->load()) ||
          (transportFailure && *failedInARow >= kShrinkTransportFailuresInARow))
        executor.halt();
      return executor.run(batch, from, to, seed);
    };
  }

  void recordCase(const PlannedCase& planned, CaseResult& result,
                  const std::string& origin = "generated") {
    if (!reachable_) return;
    {
      std::lock_guard<std::mutex> lock(tallyMutex_);
      tally_.addAll(result.forward, planned.from, planned.to);
      for (std::size_t i = 0; i < result.backward.size(); ++i)
        tally_.add(result.backward[i], result.backwardFrom, result.backwardTo[i]);
      tally_.addAll(result.composite, planned.from, planned.to);
    }
    shrinkNewFailures(planned, result, origin);
  }

  void checkTls() {
    if (!tally_.wants("tls")) return;
    TlsEvidence evidence;
    evidence.https = target_.url.rfind("https://", 0) == 0;
    evidence.skipVerify = transport_.tls.insecureSkipVerify;
    if (evidence.https && !evidence.skipVerify) {
      TlsInspection inspection = inspectServerTls(target_.url, transport_.tls, transport_.timeout);
      evidence.handshakeCompleted = inspection.handshakeCompleted;
      evidence.error = inspection.error;
      evidence.acceptedByKubeApiserver = inspection.acceptedByKubeApiserver;
      evidence.reasons = inspection.reasons;
    }
    std::lock_guard<std::mutex> lock(tallyMutex_);
    tally_.add(judgeTls(evidence), "", "");
  }

  // A converter with a target of its own (a connection is used by one caller at a time), whose
  // requests take a slot of the run's gate.
  std::unique_ptr<Converter> newConverter() {
    auto converter = std::make_unique<Converter>(crd_, makeTarget_(target_), target_.reviewVersion);
    converter->setGate(&gate_);
    return converter;
  }

  void finish() {
    shrinkProblems();
    for (auto& note : chokes_.notes()) report_.notes.push_back(std::move(note));
    tally_.fill(report_);
    sizeLimit_.describe(report_);
    report_.versions = versions_;
  }

  const Crd& crd_;
  const KindContext& kind_;
  const RunConfig& config_;
  std::ostream& log_;
  ResolvedTarget target_;
  const TransportOptions& transport_;  // target_'s
  TargetFactory makeTarget_;
  RequestGate gate_{config_.jobs};  // --jobs requests in flight, over every converter of the run
  Converter converter_;
  KindReport report_;  // before tally_, which takes its warning-only versions
  Tally tally_;
  CaseExecutor executor_;
  struct Worker {
    std::unique_ptr<Converter> converter;
    std::unique_ptr<CaseExecutor> executor;
  };
  std::vector<Worker> workers_;  // one per --jobs: a case more than the request slots
  std::mutex callMutex_;
  std::mutex slotsMutex_;  // freeSlots_ and the outcomes of cases in flight
  std::mutex tallyMutex_;  // tally_'s counts and examples, which running cases ask (known causes)
  std::condition_variable caseFinished_;
  std::vector<int> freeSlots_;      // executors no case runs on
  std::map<int, json> identities_;  // case index -> identity of its object 0, per pair
  RunShrinker shrinker_{kind_.generators(), kind_.checkers(), config_.shrinkBudget};
  std::vector<std::string> versions_;
  bool reachable_ = false;
  std::atomic<bool> stopped_{false};
  std::vector<ShrinkJob> pendingShrinks_;           // one per problem, in the order found
  std::deque<std::future<ShrunkExample>> shrinks_;  // in the order the problems are shrunk
  bool interrupted_ = false;
  int failingCases_ = 0;   // judged cases with a failing property (--max-failures)
  bool firstCase_ = true;  // the run's first case runs alone: it tells whether the webhook answers
  TransportBreaker breaker_{config_.maxConsecutiveTransportFailures,
                            [this](const SentReview& sent) { return probe(sent); }};
  ChokeTracker chokes_;
  BatchSizeLimit sizeLimit_;  // batch sizes the webhook times out on or refuses, per pair
  std::unique_ptr<Converter> probeConverter_;
  std::mt19937_64 probeUids_{0x9f0be5ull};
  std::string unreachableReason_;
};

// The CRDs to test: those named with --kind, else those with strategy Webhook, else (a CRD that
// does not declare webhook conversion yet, tested with --url) every CRD with two or more versions.
std::vector<const Crd*> selectCrds(const std::vector<Crd>& crds, const RunConfig& config) {
  std::vector<const Crd*> out;
  for (const auto& crd : crds) {
    bool named =
        std::find(config.kinds.begin(), config.kinds.end(), crd.kind) != config.kinds.end() ||
        std::find(config.kinds.begin(), config.kinds.end(), crd.name) != config.kinds.end();
    if (config.kinds.empty() ? crd.conversionStrategy == "Webhook" : named) out.push_back(&crd);
  }
  if (out.empty() && config.kinds.empty() && !config.url.empty())
    for (const auto& crd : crds)
      if (crd.versions.size() >= 2) out.push_back(&crd);
  return out;
}

}  // namespace

RunReport runConformance(const RunConfig& config, std::istream& stdinStream, std::ostream& log,
                         const TargetFactory& makeTarget) {
  auto started = std::chrono::steady_clock::now();
  RunReport report;
  report.startedAt = fmt::format(
      "{:%Y-%m-%dT%H:%M:%SZ}",
      fmt::gmtime(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now())));
  report.seed = config.seed;
  report.command = config.commandLine;
  report.rawObjects = config.rawObjects;
  report.canonicalDateTimes = config.canonicalDateTimes;
  auto finishWith = [&](int code) {
    report.exitCode = code;
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return report;
  };

  LoadResult loaded = loadCrdSource(config.crdInput, stdinStream, config.cluster);
  for (const auto& w : loaded.warnings) report.warnings.push_back(w);
  if (!loaded.errors.empty()) {
    for (const auto& e : loaded.errors)
      report.fatalError += (report.fatalError.empty() ? "" : "\n") + e.text();
    return finishWith(2);
  }
  std::vector<const Crd*> selected = selectCrds(loaded.crds, config);
  if (selected.empty()) {
    report.fatalError =
        !config.kinds.empty() ? fmt::format("{}: no CRD matches --kind", config.crdInput)
        : config.url.empty()
            ? fmt::format(
                  "{}: no CRD with spec.conversion.strategy Webhook; pass the webhook's --url to "
                  "test a CRD that does not declare webhook conversion yet, or name CRDs with "
                  "--kind",
                  config.crdInput)
            : fmt::format("{}: no CRD with two or more versions: there is nothing to convert",
                          config.crdInput);
    return finishWith(2);
  }

  std::unique_ptr<KubectlProxy> serviceProxy;  // the API server's service proxy, for the run
  if (config.serviceProxy) {
    auto started = startServiceProxy(config.cluster);
    if (auto* error = std::get_if<std::string>(&started)) {
      report.fatalError = *error;
      return finishWith(2);
    }
    serviceProxy = std::move(std::get<std::unique_ptr<KubectlProxy>>(started));
  }

  RunConfig perKind = config;  // a --duration is shared by every kind
  if (perKind.duration) *perKind.duration /= static_cast<int>(selected.size());
  bool anyTested = false;
  std::vector<std::string> unreachable;
  try {
    for (const Crd* crd : selected) {
      auto target =
          resolveTarget(*crd, TargetChoice{config.url, config.transport, config.reviewVersion,
                                           serviceProxy ? serviceProxy->baseUrl() : ""});
      if (auto* error = std::get_if<std::string>(&target)) throw InputError{*error};
      auto compiled = KindContext::compile(
          *crd, KindSettings{GeneratorOptions{FormatOptions{config.canonicalDateTimes}},
                             config.rawObjects, config.acks ? &*config.acks : nullptr});
      if (auto* error = std::get_if<KindContext::Error>(&compiled))
        throw InputError{fmt::format("{}, document {}: version {}: {}", crd->source.file,
                                     crd->source.document, error->version, error->message)};
      KindRun run(std::get<KindContext>(compiled), perKind, std::get<ResolvedTarget>(target),
                  makeTarget ? makeTarget : TargetFactory(httpsTarget), log);
      const auto kindStarted = std::chrono::steady_clock::now();
      bool reached = run.run();
      const std::chrono::duration<double> kindSeconds =
          std::chrono::steady_clock::now() - kindStarted;
      if (reached)
        anyTested = true;
      else
        unreachable.push_back(fmt::format(
            "{}: could not reach the webhook: {}", crd->name,
            explainUnreachable(std::get<ResolvedTarget>(target), run.unreachableReason())));
      report.kinds.push_back(run.takeReport());
      report.kinds.back().seconds = kindSeconds.count();
      if (run.interrupted()) {
        report.interrupted = true;
        break;
      }
      if (perKind.maxFailingCases > 0) {  // the limit is the whole run's
        perKind.maxFailingCases -= run.failingCases();
        if (perKind.maxFailingCases <= 0) break;
      }
    }
  } catch (const InputError& e) {
    report.fatalError = e.message;
    return finishWith(2);
  }
  for (const auto& u : unreachable)
    report.fatalError += (report.fatalError.empty() ? "" : "\n") + u;
  if (report.interrupted) return finishWith(kInterruptedExitCode);
  if (!anyTested) return finishWith(3);
  return finishWith(report.failedProperties() > 0 ? 1 : 0);
}

}  // namespace convcheck
