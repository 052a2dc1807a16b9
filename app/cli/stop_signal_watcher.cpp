#include "app/cli/stop_signal_watcher.h"

#include <pthread.h>

#include <ctime>

namespace convcheck {

StopSignalWatcher::StopSignalWatcher(std::atomic<bool>& stop) : stop_(stop) {
  sigemptyset(&signals_);
  sigaddset(&signals_, SIGINT);
  sigaddset(&signals_, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals_, &previous_);
  thread_ = std::thread([this] {
    timespec tick{0, 100 * 1000 * 1000};
    while (!done_.load()) {
      if (sigtimedwait(&signals_, nullptr, &tick) > 0) stop_.store(true);
    }
  });
}

StopSignalWatcher::~StopSignalWatcher() {
  done_.store(true);
  thread_.join();
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

}  // namespace convcheck
