#include "shrink/batch_reduce.h"

#include <algorithm>

namespace convcheck {

namespace {

bool tryCandidate(const Subset& candidate, const ReduceCallbacks& cb) {
  if (candidate.empty() || cb.stop()) return false;
  if (cb.admissible && !cb.admissible(candidate)) return false;
  return cb.stillFails(candidate);
}

Subset without(const Subset& current, std::size_t start, std::size_t count) {
  Subset out;
  out.reserve(current.size());
  for (std::size_t i = 0; i < current.size(); ++i)
    if (i < start || i >= start + count) out.push_back(current[i]);
  return out;
}

}  // namespace

Subset reduceBatch(std::size_t n, const ReduceCallbacks& cb) {
  Subset current;
  for (std::size_t i = 0; i < n; ++i) current.push_back(i);
  if (n <= 1) return current;
  for (const Subset& first : cb.firstTries)
    if (tryCandidate(first, cb)) {
      current = first;
      break;
    }
  if (current.size() == 1) return current;
  // Single objects: what the API server sends most, and what most bugs need. A few tries only:
  // a batch-size bug would make every single one pass and waste the budget.
  if (current.size() == n) {
    int singles = 0;
    for (std::size_t i = 0; i < n && singles < 4 && !cb.stop(); ++i) {
      Subset one{current[i]};
      if (cb.admissible && !cb.admissible(one)) continue;
      ++singles;
      if (cb.stillFails(one)) return one;
    }
  }
  // Chunks of half, a quarter, ... one position. Each size is swept once; the last sweep (single
  // positions) repeats while a removal came after a rejected try, which makes the result
  // 1-minimal.
  std::size_t chunk = current.size() / 2;
  while (current.size() > 1 && !cb.stop()) {
    chunk = std::max<std::size_t>(1, std::min(chunk, current.size() / 2));
    bool retry = false;
    int rejected = 0;
    for (std::size_t start = 0; start < current.size() && !cb.stop();) {
      Subset candidate = without(current, start, chunk);
      if (tryCandidate(candidate, cb)) {
        current = std::move(candidate);  // the same start now names the next chunk
        if (rejected > 0) retry = true;
      } else {
        ++rejected;
        start += chunk;
      }
    }
    if (chunk > 1)
      chunk /= 2;
    else if (!retry)
      break;
  }
  return current;
}

}  // namespace convcheck
