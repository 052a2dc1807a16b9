// Hands the memory that finished cases freed back to the system, whichever allocator the binary
// runs on. Called by the runner after large cases, so a long run's peak follows its largest case.
#pragma once

namespace convcheck {

// jemalloc (the convcheck binary, CONVCHECK_JEMALLOC): purges every arena's unused pages at once
// instead of after its decay time. glibc malloc (tests, sanitizer builds): malloc_trim.
void releaseFreedMemory();

}  // namespace convcheck
