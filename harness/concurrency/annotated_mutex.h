// A mutex, its scoped lock and the attributes that let Clang's -Wthread-safety check which state a
// lock guards (libstdc++'s std::mutex carries none). Used by the request gate and the runner.
#pragma once

#include <condition_variable>
#include <mutex>

#if defined(__clang__)
#define CONVCHECK_THREAD_ATTRIBUTE(x) __attribute__((x))
#else
#define CONVCHECK_THREAD_ATTRIBUTE(x)
#endif

// A type whose objects are locks (the analysis' "capability").
#define CAPABILITY(name) CONVCHECK_THREAD_ATTRIBUTE(capability(name))
// A type whose objects hold a lock from construction to destruction.
#define SCOPED_CAPABILITY CONVCHECK_THREAD_ATTRIBUTE(scoped_lockable)
// A member read or written only with `lock` held.
#define GUARDED_BY(lock) CONVCHECK_THREAD_ATTRIBUTE(guarded_by(lock))
// A function called only with the locks held.
#define REQUIRES(...) CONVCHECK_THREAD_ATTRIBUTE(requires_capability(__VA_ARGS__))
// A function called only without the locks held (it takes them).
#define EXCLUDES(...) CONVCHECK_THREAD_ATTRIBUTE(locks_excluded(__VA_ARGS__))
#define ACQUIRE(...) CONVCHECK_THREAD_ATTRIBUTE(acquire_capability(__VA_ARGS__))
#define RELEASE(...) CONVCHECK_THREAD_ATTRIBUTE(release_capability(__VA_ARGS__))
// A function after which the analysis takes the lock as held (it is, by the caller's contract).
#define ASSERT_CAPABILITY(x) CONVCHECK_THREAD_ATTRIBUTE(assert_capability(x))

namespace convcheck {

class CAPABILITY("mutex") Mutex {
 public:
  void lock() ACQUIRE() { mutex_.lock(); }
  void unlock() RELEASE() { mutex_.unlock(); }
  // Tells the analysis that the caller holds the mutex (a callback run inside a locked section).
  void assertHeld() const ASSERT_CAPABILITY(this) {}

 private:
  friend class MutexLock;
  std::mutex mutex_;
};

// Holds `mutex` for its lifetime; wait() releases it while blocked, as std::condition_variable
// does.
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mutex) ACQUIRE(mutex) : lock_(mutex.mutex_) {}
  ~MutexLock() RELEASE() {}
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  // Blocks until `changed` is notified (or wakes spuriously): callers test their condition again.
  void wait(std::condition_variable& changed) { changed.wait(lock_); }

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace convcheck
