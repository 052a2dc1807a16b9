// The kinds a CRD input holds, named for a person: "Widget (widgets.example.com), CronTab
// (crontabs.stable.example.com)". Used by the commands' errors when --kind matches none of them.
#pragma once

#include <string>
#include <vector>

#include "kube/crd/crd.h"

namespace convcheck {

// Each CRD's kind and name, in input order, separated by ", "; "no CRD" when there is none.
std::string describeKinds(const std::vector<Crd>& crds);

}  // namespace convcheck
