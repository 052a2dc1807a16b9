// At most N requests in flight to a webhook, whatever the number of callers: the converters of a
// run share one gate, so judging an answer overlaps the next call without loading the webhook more.
#pragma once

#include <condition_variable>

#include "harness/concurrency/annotated_mutex.h"

namespace convcheck {

class RequestGate {
 public:
  explicit RequestGate(int slots) : free_(slots < 1 ? 1 : slots) {}
  RequestGate(const RequestGate&) = delete;
  RequestGate& operator=(const RequestGate&) = delete;

  // Holds one slot for its lifetime (waits for one when all are taken). A null gate holds nothing.
  class Pass {
   public:
    explicit Pass(RequestGate* gate);
    ~Pass();
    Pass(const Pass&) = delete;
    Pass& operator=(const Pass&) = delete;

   private:
    RequestGate* gate_;
  };

 private:
  void acquire() EXCLUDES(mutex_);
  void release() EXCLUDES(mutex_);

  Mutex mutex_;
  std::condition_variable freed_;
  int free_ GUARDED_BY(mutex_);
};

}  // namespace convcheck
