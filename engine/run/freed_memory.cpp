#include "engine/run/freed_memory.h"

#include <malloc.h>

#include <cstddef>

// jemalloc's control interface, present only when the binary links jemalloc: a weak reference is
// null otherwise, so the same library serves the jemalloc binary and the glibc-malloc tests.
extern "C" int mallctl(const char* name, void* oldp, std::size_t* oldlenp, void* newp,
                       std::size_t newlen) __attribute__((weak));

namespace convcheck {

void releaseFreedMemory() {
  if (mallctl) {
    // "arena.<MALLCTL_ARENAS_ALL>.purge": MALLCTL_ARENAS_ALL is 4096 in jemalloc 5.
    mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
    return;
  }
  malloc_trim(0);
}

void FreedMemoryPacer::caseDone(std::size_t objects) {
  objects_ += objects;
  if (++cases_ < jobs_) return;
  if (objects_ >= kReleaseAfterObjects) releaseFreedMemory();
  objects_ = 0;
  cases_ = 0;
}

}  // namespace convcheck
