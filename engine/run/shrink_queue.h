// The shrinks of a kind's run: the first failure of every new problem is shrunk against the webhook
// (shrink/) once testing is done, most severe first, at most --jobs at once, each over a connection
// of its own, and the examples reach the tally in that order. Used by the runner.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/events.h"
#include "engine/run/batch_maker.h"
#include "engine/run/call_ledger.h"
#include "engine/run/connections.h"
#include "engine/run/kind_context.h"
#include "engine/run/shared_tally.h"
#include "harness/plan/test_plan.h"
#include "shrink/run_shrinker.h"

namespace convcheck {

// The least time shrinking gets after a time-bounded run or fuzz campaign.
inline constexpr std::chrono::milliseconds kShrinkTimeFloor{30'000};

class ShrinkQueue {
 public:
  // What the shrinks share with the run; every part must outlive the queue.
  struct Run {
    const KindContext& kind;
    Connections& connections;
    CallLedger& calls;
    SharedTally& tally;
    std::chrono::milliseconds timeout;                 // the transport's
    int jobs = 1;                                      // shrinks at once
    int budget = 0;                                    // --shrink-budget (RunConfig's)
    const std::atomic<bool>* stopRequested = nullptr;  // SIGINT/SIGTERM; may be null
    EventSink events = {};                             // told each shrink done
    // JSON values in the cases of the shrinks running at once up to which another may start (one
    // always may): shrinks of large cases run one after another (RunConfig::valuesInFlight; 0:
    // no bound but `jobs`).
    std::size_t valuesInFlight = 0;
  };
  // Shrinks still running when the queue goes (an error ended the run) are waited for.
  explicit ShrinkQueue(Run run);
  // Shrinks not started by `deadline` are left out (their problems keep the unshrunk example) and
  // running ones stop there; `budget` names the time budget in the report's note.
  void setDeadline(std::chrono::steady_clock::time_point deadline, std::string budget);
  ShrinkQueue(const ShrinkQueue&) = delete;
  ShrinkQueue& operator=(const ShrinkQueue&) = delete;

  // Chooses the new problems of a tallied case (call in case order) and keeps their shrinks for
  // drain(). `origin`: "generated" or the corpus file's.
  void add(const PlannedCase& planned, const CaseResult& result, const std::string& origin);
  // Whether a shrink waits for drain() (called on the thread that calls add()).
  bool hasPending() const { return !pending_.empty(); }
  // Once testing is done: runs the kept shrinks, sharing as many calls as testing made (so at
  // most half of the run's), and hands each example to the tally. Returns a note for the report
  // when the shrinks' share ran out (else empty).
  std::string drain();

 private:
  void collect();
  // Runs a changed batch as the job's case, through `converter` (used by this shrink only).
  CaseRunner runnerFor(const ShrinkJob& job, Converter& converter);
  // The problems the shrunk case of `example` shows with every property judging it (one more
  // run of the case; none when it did not shrink, or the run is stopping).
  std::vector<std::string> witness(const ShrunkExample& example, const ShrinkJob& job,
                                   Converter& converter);

  Run run_;
  RunShrinker shrinker_;
  std::vector<ShrinkJob> pending_;  // one per problem, in the order found
  struct Running {
    std::future<ShrunkExample> example;
    std::size_t values = 0;  // in the case it shrinks
  };
  std::deque<Running> running_;  // in the order the problems are shrunk
  std::size_t runningValues_ = 0;
  int shrunk_ = 0, shrinks_ = 0;                                   // done and started by drain()
  std::optional<std::chrono::steady_clock::time_point> deadline_;  // setDeadline
  std::string timeBudget_;
  bool pastDeadline() const;
};

}  // namespace convcheck
