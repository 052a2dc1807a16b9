// `convcheck minimize --crd … --url … --to VERSION [--property ID] OBJECT`: shrinks a user's
// failing object (kubectl get -o json|yaml output, server-set fields and all) to the smallest
// schema-valid object that still fails the same property the same way, prints it and writes a
// reproduction bundle. Exit 1 when it fails (minimised), 0 when it does not fail, 2 usage/input,
// 3 unreachable. Registered by cli.cpp.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "app/cli/shared_options.h"

namespace CLI {
class App;
}

namespace convcheck {

struct MinimizeFlags {
  std::string crd, kind, reviewVersion;
  TargetFlags target;
  std::string to, property, object, reportDir = "convcheck-minimize", output = "json";
  int shrinkBudget = 500;
  std::uint64_t seed = 1;
};

CLI::App* addMinimizeCommand(CLI::App& app, MinimizeFlags& flags);

// `in` is read when OBJECT or --crd is "-"; `version` is convcheck's (recorded in the bundle).
int runMinimize(const MinimizeFlags& flags, const std::string& version, std::istream& in,
                std::ostream& out, std::ostream& err);

}  // namespace convcheck
