// The one factory that run, replay and minimize open review targets with: the kind of target is
// chosen by the resolved URL's scheme from the table in target_kinds.cpp.
#pragma once

#include <memory>

#include "engine/run/target_resolution.h"
#include "harness/transport/review_target.h"

namespace convcheck {

// A new target for `target` (one per concurrent caller). A URL of no listed scheme goes to the
// HTTPS client, whose error names what it accepts.
std::unique_ptr<ReviewTarget> openTarget(const ResolvedTarget& target);

// `given`, or openTarget when it is unset (tests pass in-process targets).
TargetFactory targetFactory(const TargetFactory& given);

}  // namespace convcheck
