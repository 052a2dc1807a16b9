#include "harness/transport/request_gate.h"

namespace convcheck {

RequestGate::Pass::Pass(RequestGate* gate) : gate_(gate) {
  if (gate_) gate_->acquire();
}

RequestGate::Pass::~Pass() {
  if (gate_) gate_->release();
}

void RequestGate::acquire() {
  MutexLock lock(mutex_);
  while (free_ <= 0) lock.wait(freed_);
  --free_;
}

void RequestGate::release() {
  {
    MutexLock lock(mutex_);
    ++free_;
  }
  freed_.notify_one();
}

}  // namespace convcheck
