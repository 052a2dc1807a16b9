#include "harness/transport/request_gate.h"

namespace convcheck {

RequestGate::Pass::Pass(RequestGate* gate) : gate_(gate) {
  if (gate_) gate_->acquire();
}

RequestGate::Pass::~Pass() {
  if (gate_) gate_->release();
}

void RequestGate::acquire() {
  std::unique_lock<std::mutex> lock(mutex_);
  freed_.wait(lock, [this] { return free_ > 0; });
  --free_;
}

void RequestGate::release() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++free_;
  }
  freed_.notify_one();
}

}  // namespace convcheck
