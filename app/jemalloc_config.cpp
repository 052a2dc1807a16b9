// jemalloc's options for the convcheck binary (linked when CONVCHECK_JEMALLOC is on): read by
// jemalloc at its start; the MALLOC_CONF environment variable still overrides each of them.
//
// - narenas:2: a case's objects are made by the run loop and freed by the case's thread; with one
//   arena per thread (the default) what one case freed is not reused by the next case's thread.
// - dirty_decay_ms:1000, muzzy_decay_ms:0: pages a finished case freed go back to the system
//   within a second, so a long run's memory follows the cases in flight, not the largest so far.
extern "C" {
// NOLINTNEXTLINE: the name and type jemalloc looks up.
const char* malloc_conf = "narenas:1,dirty_decay_ms:1000,muzzy_decay_ms:0";
}
