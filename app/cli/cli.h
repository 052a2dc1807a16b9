// The convcheck command line: subcommands run, generate and properties, every option declared
// once in cli.cpp with its help text and default. Called by app/main.cpp and by CLI tests.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace convcheck {

// Returns the process exit code (SPEC §7): 0, 1, 2 (usage/input), 3 (nothing testable).
int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
           std::ostream& err);

}  // namespace convcheck
