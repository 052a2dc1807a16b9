// `convcheck replay BUNDLE`: re-runs exactly the case of a reproduction bundle (same objects,
// target version, seed and property) and says whether it still fails. Exit 1 still fails, 0 now
// passes, 2 unreadable bundle or bad flags, 3 webhook unreachable. Registered by cli.cpp.
#pragma once

#include <iosfwd>
#include <string>

#include "app/cli/shared_options.h"

namespace CLI {
class App;
}

namespace convcheck {

struct ReplayFlags {
  std::string bundle;
  TargetFlags target;  // unset fields: the bundle's
};

// Declares the subcommand and its options (each once, with help text) on `app`.
CLI::App* addReplayCommand(CLI::App& app, ReplayFlags& flags);

int runReplay(const ReplayFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace convcheck
