#include "engine/run/case_window.h"

#include "engine/run/freed_memory.h"

namespace convcheck {

CaseWindow::CaseWindow(CaseExecutors& executors, Limits limits)
    : executors_(executors), limits_(limits) {}

// At most twice the executors are in flight or wait to be tallied, and beyond --jobs of them only
// while their batches are small (Limits::pipelinedValues), so that large batches hold no more
// memory than --jobs cases would. A case starts as soon as an executor is free; cases are tallied
// in plan order.
bool CaseWindow::run(const Steps& steps) {
  {
    MutexLock lock(mutex_);
    freeExecutors_.clear();
    for (std::size_t slot = executors_.size(); slot-- > 0;)
      freeExecutors_.push_back(static_cast<int>(slot));
  }
  const std::size_t maxWindow = 2 * executors_.size();
  FreedMemoryPacer memory(limits_.jobs);
  std::optional<PreparedCase> next;
  for (;;) {
    // Whether `next` may start once an executor is free (it waits for a tally otherwise).
    bool startable = false;
    for (;;) {
      if (!next) next = steps.make(window_.size());
      startable = next && !steps.stopped() && window_.size() < maxWindow && fits(*next);
      const int slot = startable ? takeExecutor() : -1;
      if (slot < 0) break;
      valuesInWindow_ += next->values;
      window_.push_back(start(std::move(*next), slot));
      next.reset();
    }
    if (window_.empty()) return true;
    {
      // The earliest case to tally, or (when the next case may start) a free executor.
      MutexLock lock(mutex_);
      const Outcome& front = *window_.front().outcome;
      while (!front.done && !(startable && !freeExecutors_.empty())) lock.wait(caseFinished_);
      if (!front.done) continue;
    }
    InFlight c = std::move(window_.front());
    window_.pop_front();
    valuesInWindow_ -= c.values;
    c.thread.join();
    if (c.outcome->error) std::rethrow_exception(c.outcome->error);
    bool goOn = false;
    {
      CaseResult result = std::move(c.outcome->result);
      c.outcome.reset();
      // A forward call cut to the pair's batch cap sent the batch's first objects.
      const ExchangeRef& forward = result.forwardCall;
      if (forward && forward->sent.objects.size() < c.planned.sourceVersions.size())
        c.planned.sourceVersions.resize(forward->sent.objects.size());
      goOn = steps.tally(c.planned, result);
    }
    if (!goOn) return false;
    memory.caseDone(c.objects);
  }
}

bool CaseWindow::fits(const PreparedCase& next) const {
  const std::size_t values = valuesInWindow_ + next.values;
  return (window_.empty() || values <= limits_.valuesInFlight) &&
         (window_.size() < limits_.jobs || values <= limits_.pipelinedValues);
}

int CaseWindow::takeExecutor() {
  MutexLock lock(mutex_);
  if (freeExecutors_.empty()) return -1;
  const int slot = freeExecutors_.back();
  freeExecutors_.pop_back();
  return slot;
}

CaseWindow::InFlight CaseWindow::start(PreparedCase prepared, int slot) {
  InFlight c;
  std::vector<nlohmann::json> batch = std::move(prepared.batch);
  c.objects = batch.size();
  c.values = prepared.values;
  c.planned = std::move(prepared.planned);
  c.outcome = std::make_shared<Outcome>();
  c.thread = std::jthread(
      [this, slot, outcome = c.outcome, batch = std::move(batch), planned = c.planned]() mutable {
        CaseResult result;
        std::exception_ptr error;
        try {
          result = executors_[slot].run(std::move(batch), planned.from, planned.to, planned.seed,
                                        BatchCut::ToCap);
        } catch (...) {
          error = std::current_exception();
        }
        finished(slot, *outcome, std::move(result), error);
      });
  return c;
}

void CaseWindow::finished(int slot, Outcome& outcome, CaseResult result, std::exception_ptr error) {
  {
    MutexLock lock(mutex_);
    outcome.result = std::move(result);
    outcome.error = error;
    outcome.done = true;
    freeExecutors_.push_back(slot);
  }
  caseFinished_.notify_all();
}

}  // namespace convcheck
