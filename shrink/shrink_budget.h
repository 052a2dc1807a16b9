// The webhook calls a shrink may spend (--shrink-budget), so a slow webhook cannot stall a CI job.
// Used by every shrinking phase; the counts end up in ShrinkInfo.
#pragma once

#include <algorithm>

namespace convcheck {

class ShrinkBudget {
 public:
  explicit ShrinkBudget(int calls) : limit_(std::max(calls, 0)) {}

  bool exhausted() const { return spent_ >= limit_; }
  void spend(int calls) { spent_ += calls; }
  int spent() const { return spent_; }
  int left() const { return std::max(limit_ - spent_, 0); }
  int limit() const { return limit_; }

 private:
  int limit_;
  int spent_ = 0;
};

}  // namespace convcheck
