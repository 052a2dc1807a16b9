#include "engine/run/run_budget.h"

#include <algorithm>

namespace convcheck {

namespace {

using std::chrono::milliseconds;

}  // namespace

RunBudget::RunBudget(Clock::time_point start, milliseconds total)
    : start_(start), total_(std::max(total, milliseconds(0))) {}

RunBudget::Clock::time_point RunBudget::testingEnd(bool problemsToShrink) const {
  return problemsToShrink ? start_ + total_ * 3 / 4 : shrinkingEnd();
}

RunBudget::Clock::time_point RunBudget::shrinkingEnd() const { return end() - total_ / 20; }

RunBudget::Clock::time_point RunBudget::shareEnd(Clock::time_point now, Clock::time_point end,
                                                 int parts) {
  if (now >= end) return now;
  return now + (end - now) / std::max(parts, 1);
}

RunBudget RunBudget::rest(Clock::time_point now, int parts) const {
  return RunBudget(now,
                   std::chrono::duration_cast<milliseconds>(shareEnd(now, end(), parts) - now));
}

}  // namespace convcheck
