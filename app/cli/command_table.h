// The list of convcheck's subcommands, in the order `convcheck help` shows them. Read by cli.cpp;
// a new subcommand is its own file and one line in command_table.cpp.
#pragma once

#include <vector>

#include "app/cli/command.h"

namespace convcheck {

std::vector<Command> commandTable();

}  // namespace convcheck
