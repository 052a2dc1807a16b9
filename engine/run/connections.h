// A kind's connections to its target: every converter of the run (a case executor's, a shrink's,
// the breaker's probe) has a target of its own, since a connection serves one caller at a time,
// and all of them share the run's --jobs request slots. Used by the runner.
#pragma once

#include <memory>

#include "engine/run/target_resolution.h"
#include "harness/transport/converter.h"
#include "harness/transport/request_gate.h"
#include "kube/crd/crd.h"

namespace convcheck {

class Connections {
 public:
  // `slots`: requests in flight at once over all the converters opened here.
  Connections(const Crd& crd, ResolvedTarget target, TargetFactory makeTarget, int slots);

  // A converter over a new target, whose requests each take one of the slots.
  std::unique_ptr<Converter> open();
  const ResolvedTarget& target() const { return target_; }

 private:
  const Crd& crd_;
  ResolvedTarget target_;
  TargetFactory makeTarget_;
  RequestGate gate_;
};

}  // namespace convcheck
