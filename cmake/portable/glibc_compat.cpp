// glibc symbols newer than 2.31 that the portable binaries refer to, defined here so that they
// link against glibc 2.31 (cmake/Portable.cmake adds this file to convcheck and example-webhook in
// the portable build only). Each behaves as glibc's does, or as a program that cannot tell.
#include <errno.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

#ifndef SYS_close_range
#define SYS_close_range 436  // the same number on every architecture (Linux 5.9)
#endif

extern "C" {

// glibc 2.32: 0 once a second thread may exist. libstdc++ (its headers and libstdc++.a) reads it
// to skip atomic reference counts in a single-threaded process; 0 always is the safe answer.
char __libc_single_threaded = 0;

// glibc 2.36: libstdc++.a's std::random_device falls back to it on a CPU without RDRAND.
uint32_t arc4random(void) noexcept {
  uint32_t value = 0;
  while (getrandom(&value, sizeof value, 0) != static_cast<ssize_t>(sizeof value)) {
  }
  return value;
}

// glibc 2.34: the webhook launcher closes the descriptors a started webhook must not inherit.
// The system call (Linux 5.9); on an older kernel, each descriptor up to the limit.
int close_range(unsigned int first, unsigned int last, int flags) noexcept {
  long done = syscall(SYS_close_range, first, last, flags);
  if (done == 0 || errno != ENOSYS || flags != 0) return static_cast<int>(done);
  rlimit limit{};
  unsigned int end = last;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      limit.rlim_cur - 1 < end)
    end = static_cast<unsigned int>(limit.rlim_cur - 1);
  for (unsigned int fd = first; fd <= end && fd >= first; ++fd) close(static_cast<int>(fd));
  return 0;
}

}  // extern "C"
