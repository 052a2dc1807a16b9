// The one factory that run, replay and minimize open review targets with, and the checks of a
// target against a CRD: the kind of target is chosen by the URL's scheme from the table in
// target_kinds.cpp.
#pragma once

#include <memory>

#include "engine/run/target_resolution.h"
#include "harness/transport/review_target.h"

namespace convcheck {

// A new target for `target` (one per concurrent caller). A URL of no listed scheme goes to the
// HTTPS client, whose error names what it accepts.
std::unique_ptr<ReviewTarget> openTarget(const ResolvedTarget& target);

// Whether `url` is reached over the network (a URL of no listed kind is): only then is the
// target a webhook, with TLS, --wait and curl lines.
bool isNetworkTarget(const std::string& url);

// Why the target `url` names cannot convert `crd` (bad input, said before any review is sent:
// e.g. conversion rules whose fields are not in the CRD's schemas); "" when nothing.
std::string targetProblems(const Crd& crd, const std::string& url);

// `given`, or openTarget when it is unset (tests pass in-process targets).
TargetFactory targetFactory(const TargetFactory& given);

}  // namespace convcheck
