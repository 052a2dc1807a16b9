// A run's cap on the objects a call sends, per version pair, applied by the run's converters while
// a call holds its request slot: a cap that one call's answer sets holds for every call sent after
// it. Implemented by the runner's batch size limit; used by the Converter.
#pragma once

#include <cstddef>
#include <string>

#include "harness/transport/exchange.h"

namespace convcheck {

// Whether a call may be cut to its pair's cap: a case's first (forward) call may, the calls that
// follow it convert what it sent and may not.
enum class BatchCut { Whole, ToCap };

class BatchCap {
 public:
  virtual ~BatchCap() = default;
  // The most objects a call converting objects of `from` (its first object's version) to `to`
  // may send.
  virtual std::size_t cap(const std::string& from, const std::string& to) const = 0;
  // Every call's request and HTTP result, before its slot is freed (its answer not judged yet).
  virtual void observe(const Exchange& exchange) = 0;
};

}  // namespace convcheck
