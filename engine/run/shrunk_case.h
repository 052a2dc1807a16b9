// Which failing case a problem's shrunk example is: two problems whose shrunk examples are the
// same case failed the same way in it (one diff, named after different parts of it), so they are
// one defect. Used by the tally when it groups problems into defects (engine/run/tally.cpp).
#pragma once

#include <string>

#include "properties/checks/finding.h"

namespace convcheck {

// The case `example` ran, as text: its property, versions, seed (an edit's content, the via
// version of transitivity) and objects; "" when the example was not shrunk or is more than two
// objects (such a case may hold several defects, each in other objects).
std::string shrunkCaseIdentity(const Finding& example);

}  // namespace convcheck
