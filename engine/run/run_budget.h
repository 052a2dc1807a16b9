// A time budget for the whole of a run (run's --duration, fuzz's --max-total-time): when testing,
// then shrinking, must stop so that the run with its reports ends within it. Used by the runner
// and the fuzz engine.
#pragma once

#include <chrono>

namespace convcheck {

class RunBudget {
 public:
  using Clock = std::chrono::steady_clock;

  // `total` from `start`.
  RunBudget(Clock::time_point start, std::chrono::milliseconds total);

  Clock::time_point start() const { return start_; }
  std::chrono::milliseconds total() const { return total_; }
  Clock::time_point end() const { return start_ + total_; }
  // Testing starts no case after this: once a problem waits to be shrunk, three quarters of the
  // budget (shrinking gets the rest); until then all of it but the reports' share.
  Clock::time_point testingEnd(bool problemsToShrink) const;
  // No shrink call starts after this: all of the budget but the reports' share (a twentieth).
  Clock::time_point shrinkingEnd() const;
  // When the next part of a budget shared by `parts` runs one after another (version pairs,
  // kinds) ends if it starts at `now` and the parts together must end by `end`: an equal share
  // of what is left, so time a part did not use goes to the parts after it.
  static Clock::time_point shareEnd(Clock::time_point now, Clock::time_point end, int parts);
  // The remaining budget from `now` as a budget of its own (zero once it is spent).
  RunBudget rest(Clock::time_point now, int parts) const;

 private:
  Clock::time_point start_;
  std::chrono::milliseconds total_;
};

}  // namespace convcheck
