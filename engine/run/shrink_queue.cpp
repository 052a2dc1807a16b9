#include "engine/run/shrink_queue.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "engine/run/shrunk_witness.h"

namespace convcheck {

using nlohmann::json;

namespace {

// Shrinking a transport failure (a timeout) stops after this many failed calls in a row.
constexpr int kShrinkTransportFailuresInARow = 2;

}  // namespace

ShrinkQueue::ShrinkQueue(Run run)
    : run_(run), shrinker_(run.kind.generators(), run.kind.checkers(), run.budget) {}

void ShrinkQueue::add(const PlannedCase& planned, const CaseResult& result,
                      const std::string& origin) {
  RunShrinker::CaseInfo info{planned.from, planned.to,
                             planned.seed, origin == "generated" ? &planned : nullptr,
                             origin,       run_.calls.requests()};
  for (auto& job : shrinker_.select(result, info)) pending_.push_back(std::move(job));
}

void ShrinkQueue::setDeadline(std::chrono::steady_clock::time_point deadline, std::string budget) {
  deadline_ = deadline;
  timeBudget_ = std::move(budget);
}

bool ShrinkQueue::pastDeadline() const {
  return deadline_ && std::chrono::steady_clock::now() >= *deadline_;
}

void ShrinkQueue::collect() {
  ShrunkExample e = running_.front().example.get();
  runningValues_ -= running_.front().values;
  running_.pop_front();
  tell(run_.events, ShrinkDone{run_.kind.crd().kind, e.problem, e.target.property, e.target.from,
                               e.target.to, ++shrunk_, shrinks_});
  run_.tally.setExample(std::move(e));
}

std::string ShrinkQueue::drain() {
  const int testingRequests = run_.calls.requests();
  shrinker_.shareBudget(testingRequests, static_cast<int>(pending_.size()));
  RunShrinker::rank(pending_);
  shrinks_ += static_cast<int>(pending_.size());
  int late = 0;  // shrinks left out at the deadline
  for (auto& job : pending_) {
    const std::size_t values = jsonValues(job.sent);
    while (!running_.empty() &&
           (static_cast<int>(running_.size()) >= run_.jobs ||
            (run_.valuesInFlight > 0 && runningValues_ + values > run_.valuesInFlight)))
      collect();
    if (pastDeadline()) {  // the case as found, still replayable and stored as a regression
      ++late;
      run_.tally.setExample(shrinker_.unshrunk(job));
      continue;
    }
    runningValues_ += values;
    running_.push_back({std::async(std::launch::async,
                                   [this, job = std::move(job)] {
                                     std::unique_ptr<Converter> converter = run_.connections.open();
                                     ShrunkExample example =
                                         shrinker_.shrink(job, runnerFor(job, *converter));
                                     example.witnessed = witness(example, job, *converter);
                                     return example;
                                   }),
                        values});
  }
  pending_.clear();
  while (!running_.empty()) collect();
  if (late > 0)
    return fmt::format(
        "shrinking stopped at the time budget ({}): {} of {} problems keep their unshrunk "
        "example",
        timeBudget_, late, shrinks_);
  if (!shrinker_.sharedBudgetHit()) return {};
  return fmt::format(
      "shrinking stopped at its share of the run ({} calls, as many as testing made): some "
      "counterexamples are not minimal, or not shrunk at all",
      testingRequests);
}

std::vector<std::string> ShrinkQueue::witness(const ShrunkExample& example, const ShrinkJob& job,
                                              Converter& converter) {
  if (run_.calls.stopped() || (run_.stopRequested && run_.stopRequested->load()) || pastDeadline())
    return {};
  auto run = [&](const std::vector<nlohmann::json>& batch, const std::string& from,
                 const std::function<bool(const std::string&)>& wants) {
    CaseSettings settings = run_.kind.caseSettings();
    settings.timeout = run_.timeout;
    settings.wants = wants;
    settings.onCall = [this](const Exchange& ex) { run_.calls.record(ex); };
    CaseExecutor executor(run_.kind.crd(), converter, std::move(settings));
    if (run_.calls.stopped()) executor.halt();
    return executor.run(batch, from, job.to, job.seed);
  };
  return witnessShrunk(example, job, run_.kind, run,
                       [this](const std::string& p) { return run_.tally.wants(p); });
}

CaseRunner ShrinkQueue::runnerFor(const ShrinkJob& job, Converter& converter) {
  auto failedInARow = std::make_shared<int>(0);
  return [this, &converter, target = job.target, to = job.to, seed = job.seed, failedInARow](
             const std::vector<json>& batch, const std::string& from) {
    // When the failure is itself a transport failure (a timeout), failing calls are expected
    // and must not trip the circuit breaker; the shrink budget bounds them. A webhook that
    // keeps not answering is not worth minimising against: each such call costs a whole
    // timeout, so the shrink stops after kShrinkTransportFailuresInARow of them.
    const bool transportFailure = target.signature.rfind("transport", 0) == 0;
    CaseSettings settings = run_.kind.caseSettings();
    settings.timeout = run_.timeout;
    settings.wants = [target](const std::string& p) { return caseNeeds(target, p); };
    settings.onCall = [this, transportFailure, failedInARow](const Exchange& ex) {
      *failedInARow = ex.http.ok() ? 0 : *failedInARow + 1;
      if (transportFailure)
        run_.calls.count(ex);
      else
        run_.calls.record(ex);
    };
    CaseExecutor executor(run_.kind.crd(), converter, std::move(settings));
    // A stopped run ends shrinks, except of transport failures, which bound themselves: the
    // run stops because of such failures, and their example is still worth its few calls.
    if ((run_.calls.stopped() && !transportFailure) ||
        (run_.stopRequested && run_.stopRequested->load()) || pastDeadline() ||
        (transportFailure && *failedInARow >= kShrinkTransportFailuresInARow))
      executor.halt();
    return executor.run(batch, from, to, seed);
  };
}

}  // namespace convcheck
