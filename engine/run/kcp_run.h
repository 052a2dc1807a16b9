// What a run or fuzz campaign against kcp's conversion rules (the --conversion target kind) takes
// from its APIConversion before it starts. Called by the commands once their options are read.
#pragma once

#include <string>

#include "engine/run/run_config.h"

namespace convcheck {

// For a kcp:// c.url: its APIConversion read and compiled (the error names the file and field),
// kcp's preserve annotations acknowledged as its bookkeeping (added on the way out, dropped on the
// way back), and no-pruned-fields left out when --properties chose none (kcp leaves the source
// version's fields for kube-apiserver to prune, by design). Nothing for another target. Returns
// an error or "".
std::string prepareKcpRun(RunConfig& c);

}  // namespace convcheck
