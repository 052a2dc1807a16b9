// The webhook calls a shrink may spend (--shrink-budget), so a slow webhook cannot stall a CI job,
// and the calls every shrink of a run may spend together (RunShrinker: half of the run's calls).
// Used by every shrinking phase; the counts end up in ShrinkInfo and the report's notes.
#pragma once

#include <algorithm>
#include <climits>
#include <mutex>

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

// The calls shared by the shrinks of one run: each shrink reserves its own budget from it before
// it starts and gives back what it did not spend. Thread-safe (shrinks run beside each other).
class SharedShrinkBudget {
 public:
  // `calls` shared by `shrinks` shrinks to come.
  void setLimit(int calls, int shrinks = 1) {
    std::lock_guard<std::mutex> lock(mutex_);
    limit_ = std::max(calls, 0);
    shrinksLeft_ = std::max(shrinks, 1);
  }
  // Up to `calls` of what is left, now reserved for one shrink: at most an even share of what is
  // left among the shrinks still to come, so the first ones cannot starve the others (what a
  // shrink gives back goes to those after it).
  int reserve(int calls) {
    std::lock_guard<std::mutex> lock(mutex_);
    const int left = std::max(limit_ - reserved_, 0);
    const int share = shrinksLeft_ > 1 ? left / shrinksLeft_ : left;
    const int granted = std::clamp(share, 0, std::max(calls, 0));
    reserved_ += granted;
    if (shrinksLeft_ > 1) --shrinksLeft_;
    return granted;
  }
  void giveBack(int calls) {
    std::lock_guard<std::mutex> lock(mutex_);
    reserved_ -= std::clamp(calls, 0, reserved_);
  }
  // A shrink stopped (or never started) for want of the calls it could not reserve.
  void markHit() {
    std::lock_guard<std::mutex> lock(mutex_);
    hit_ = true;
  }
  bool hit() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return hit_;
  }
  int limit() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return limit_;
  }

 private:
  mutable std::mutex mutex_;
  int limit_ = INT_MAX;  // guarded by mutex_
  int reserved_ = 0;     // guarded by mutex_: calls spent or held by running shrinks
  int shrinksLeft_ = 1;  // guarded by mutex_
  bool hit_ = false;     // guarded by mutex_
};

}  // namespace convcheck
