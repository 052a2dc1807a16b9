// Hands the memory that finished cases freed back to the system, whichever allocator the binary
// runs on. Called by the runner's case window after large cases, so a long run's peak follows its
// largest case.
#pragma once

#include <cstddef>

namespace convcheck {

// jemalloc (the convcheck binary, CONVCHECK_JEMALLOC): purges every arena's unused pages at once
// instead of after its decay time. glibc malloc (tests, sanitizer builds): malloc_trim.
void releaseFreedMemory();

// Releases freed memory every --jobs cases, when they held enough objects to be worth the system
// calls: a case of large objects holds its batch as sent and as a client sees it after each call,
// plus the answers' texts, and the allocator keeps what they freed for a while. Releasing it keeps
// a long run's memory at what the cases in flight need instead of the most they ever needed;
// cases of single objects free little.
class FreedMemoryPacer {
 public:
  // Objects in a run of cases from which on their freed memory is released.
  static constexpr std::size_t kReleaseAfterObjects = 32;

  explicit FreedMemoryPacer(std::size_t jobs) : jobs_(jobs) {}
  // A case of `objects` objects was tallied (and its memory freed).
  void caseDone(std::size_t objects);

 private:
  std::size_t jobs_;
  std::size_t objects_ = 0;  // since the last release
  std::size_t cases_ = 0;
};

}  // namespace convcheck
