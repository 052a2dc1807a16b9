// The convcheck command line: parses the arguments with the subcommands of command_table.cpp
// (each declares its options once, with help text and default) and runs the one given. Called by
// app/main.cpp and by CLI tests.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace convcheck {

// Returns the process exit code (SPEC §7): 0, 1, 2 (usage/input), 3 (nothing testable).
int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
           std::ostream& err);

}  // namespace convcheck
