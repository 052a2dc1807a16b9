// The run's circuit breaker: after a run of failed calls it decides whether the webhook went away
// (stop the run) or only fails on some inputs (it still converts an object it converted before:
// go on). Used by the runner, which calls it under its call lock.
#pragma once

#include <functional>
#include <optional>

#include "harness/transport/exchange.h"

namespace convcheck {

class TransportBreaker {
 public:
  // Sends `sent` again (the probe) and returns its exchange.
  using Probe = std::function<Exchange(const SentReview& sent)>;
  // At most this many probes per kind, so a webhook that really went away still stops the run.
  static constexpr int kMaxProbes = 20;

  enum class Decision {
    Continue,      // keep testing
    StillAnswers,  // the first probe converted an earlier object again: keep testing, say so
    Stop,          // the webhook is not answering
  };

  TransportBreaker(int maxFailuresInARow, Probe probe)
      : maxFailuresInARow_(maxFailuresInARow), probe_(std::move(probe)) {}

  // A call that got an HTTP answer; an accepted single-object call is what later probes send.
  void answered(const Exchange& exchange);
  // A call that failed at the transport level.
  Decision failed();
  int failuresInARow() const { return failuresInARow_; }

 private:
  int maxFailuresInARow_;
  Probe probe_;
  int failuresInARow_ = 0;
  std::optional<SentReview> lastGood_;
  int probes_ = 0;
};

}  // namespace convcheck
