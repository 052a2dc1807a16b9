// `convcheck version`: prints convcheck's version (as `convcheck --version` does). Listed in
// command_table.cpp.
#include <ostream>

#include <CLI/CLI.hpp>

#include "app/cli/command.h"

namespace convcheck {

Command versionCommand() {
  return {"version", "Print convcheck's version", [](CLI::App&) -> Execute {
            return [](const CommandContext& c) {
              c.out << "convcheck " << c.version << "\n";
              return 0;
            };
          }};
}

}  // namespace convcheck
