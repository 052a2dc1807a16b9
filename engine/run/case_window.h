// The cases of one version pair in flight: up to one per case executor at once, each on a thread
// of its own, while their calls share the run's request slots, so one case is judged while the
// others' requests are in flight. Finished cases are handed back in plan order. A case's forward
// call is cut to its pair's batch cap as it is sent (BatchCap), and the case is handed back as the
// objects it sent. Used by the runner.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/run/case_executors.h"
#include "harness/concurrency/annotated_mutex.h"
#include "harness/plan/test_plan.h"
#include "properties/case_executor.h"

namespace convcheck {

// A case made (its batch drawn, in plan order) and not started yet.
struct PreparedCase {
  PlannedCase planned;
  std::vector<nlohmann::json> batch;
  std::size_t values = 0;  // JSON values in the batch: what the case's memory grows with
};

class CaseWindow {
 public:
  struct Limits {
    std::size_t jobs = 1;  // --jobs
    // JSON values in flight up to which cases beyond --jobs, and beyond the first, may start
    // (RunConfig::pipelinedValues, RunConfig::valuesInFlight).
    std::size_t pipelinedValues = 0;
    std::size_t valuesInFlight = 0;
  };
  struct Steps {
    // The next case in plan order, or none (for now or for good), given the cases in flight or
    // waiting to be tallied.
    std::function<std::optional<PreparedCase>(std::size_t inFlight)> make;
    // No further case starts (the breaker stopped the run).
    std::function<bool()> stopped;
    // Tallies a finished case (in plan order); false ends the pair at once.
    std::function<bool(const PlannedCase& planned, CaseResult& result)> tally;
  };

  CaseWindow(CaseExecutors& executors, Limits limits);

  // Runs the cases `steps.make` gives till it gives none and every one is tallied (true), or
  // `steps.tally` says to stop (false). A case's exception is rethrown when its turn to be
  // tallied comes.
  bool run(const Steps& steps);

 private:
  // What a case's thread hands back: set under mutex_.
  struct Outcome {
    bool done = false;
    CaseResult result;
    std::exception_ptr error;
  };
  // A case running, or run and waiting to be tallied, on a thread of its own (joined when the
  // case is dropped, also when an error ends the run early).
  struct InFlight {
    PlannedCase planned;
    std::size_t objects = 0;
    std::size_t values = 0;
    std::shared_ptr<Outcome> outcome;
    std::jthread thread;
  };

  // Whether `next` may start beside the cases in flight (once an executor is free).
  bool fits(const PreparedCase& next) const;
  // A free executor, taken; -1 when every one runs a case.
  int takeExecutor() EXCLUDES(mutex_);
  // Runs `prepared` on executor `slot`, which is free again (and the outcome done) when the
  // thread ends.
  InFlight start(PreparedCase prepared, int slot);
  // Called by a case's thread when its case is done.
  void finished(int slot, Outcome& outcome, CaseResult result, std::exception_ptr error)
      EXCLUDES(mutex_);

  CaseExecutors& executors_;
  Limits limits_;
  std::size_t valuesInWindow_ = 0;
  Mutex mutex_;
  std::condition_variable caseFinished_;
  std::vector<int> freeExecutors_ GUARDED_BY(mutex_);
  std::deque<InFlight> window_;  // last: its threads are joined before the members they use go
};

}  // namespace convcheck
