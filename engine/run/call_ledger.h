// The calls of one kind's run: counts the requests and objects sent, tells whether the webhook was
// reached, and runs the transport breaker (with its probes) that stops the run when the webhook
// stops answering. Used by the runner, whose case and shrink threads report every call here.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/run/connections.h"
#include "engine/run/transport_breaker.h"
#include "harness/concurrency/annotated_mutex.h"
#include "harness/plan/seed_salts.h"
#include "harness/transport/exchange.h"
#include "reports/run_report.h"

namespace convcheck {

class CallLedger {
 public:
  struct Hooks {
    std::function<void(const Exchange&)> answered;  // a call with an HTTP answer (its latency)
    std::function<void()> halt;                     // no case makes a further call
  };
  // Probes go through a connection of their own from `connections`.
  CallLedger(int maxFailuresInARow, Connections& connections, Hooks hooks);

  // A call of a case or of a shrink: counted, judged for reachability and by the breaker.
  void record(const Exchange& ex) EXCLUDES(mutex_);
  // A call that is only counted (a shrink of a transport failure expects failing calls).
  void count(const Exchange& ex) EXCLUDES(mutex_);
  // No further case starts (the cases in flight finish); `note` says why in the report.
  void stop(std::string note) EXCLUDES(mutex_);
  // SIGINT/SIGTERM: the run stops after the cases in flight, and its reports say so.
  void interrupt() EXCLUDES(mutex_);

  bool stopped() const { return stopped_; }
  bool interrupted() const { return interrupted_; }
  // The breaker stopped the run: calls kept failing at the transport level.
  bool stoppedByTransport() const { return stoppedByTransport_; }
  // Whether a call got an answer, or the webhook took a call and failed it (a finding).
  bool reachable() const EXCLUDES(mutex_);
  // Why the first call that failed to connect did (when nothing was reached).
  std::string unreachableReason() const EXCLUDES(mutex_);
  int requests() const EXCLUDES(mutex_);
  // Adds the counts and the notes (breaker decisions, interruption) to `report`.
  void fill(KindReport& report) const EXCLUDES(mutex_);

 private:
  void countLocked(const Exchange& ex) REQUIRES(mutex_);
  // The breaker's probe: an earlier accepted request sent again (called from record()).
  Exchange probe(const SentReview& sent);

  Connections& connections_;
  Hooks hooks_;
  mutable Mutex mutex_;
  int requests_ GUARDED_BY(mutex_) = 0;
  int objectsSent_ GUARDED_BY(mutex_) = 0;
  bool reachable_ GUARDED_BY(mutex_) = false;
  std::string unreachableReason_ GUARDED_BY(mutex_);
  std::vector<std::string> notes_ GUARDED_BY(mutex_);
  TransportBreaker breaker_ GUARDED_BY(mutex_);
  std::unique_ptr<Converter> probeConverter_ GUARDED_BY(mutex_);
  std::mt19937_64 probeUids_ GUARDED_BY(mutex_){salted(0, SeedSalt::BreakerProbeUids)};
  std::atomic<bool> stopped_{false};
  std::atomic<bool> interrupted_{false};
  std::atomic<bool> stoppedByTransport_{false};
};

}  // namespace convcheck
