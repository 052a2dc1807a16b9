// SIGINT and SIGTERM turned into a stop request for a command's job while it lives: the signals
// are blocked and a thread waits for them, so no handler touches shared state. Used by run,
// upgrade and diff.
#pragma once

#include <signal.h>

#include <atomic>
#include <thread>

namespace convcheck {

class StopSignalWatcher {
 public:
  explicit StopSignalWatcher(std::atomic<bool>& stop);
  ~StopSignalWatcher();
  StopSignalWatcher(const StopSignalWatcher&) = delete;
  StopSignalWatcher& operator=(const StopSignalWatcher&) = delete;

 private:
  std::atomic<bool>& stop_;
  std::atomic<bool> done_{false};
  sigset_t signals_{}, previous_{};
  std::thread thread_;
};

}  // namespace convcheck
