// One subcommand of convcheck: its name, its one-line help, the options it declares and what it
// does. Each subcommand's file makes one; command_table.cpp lists them; cli.cpp parses with them.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace convcheck {

// What a subcommand runs with: the streams, the whole command line, the version and the parsed
// command tree (for help and completion).
struct CommandContext {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  const std::vector<std::string>& args;  // without the program name
  const std::string& version;
  const CLI::App& root;
};

// A usage error (bad options, unusable input): "convcheck: `error`" on `err`; returns the exit
// code 2 (SPEC §7).
int usageError(std::ostream& err, const std::string& error);

// Runs a parsed subcommand; returns the exit code (SPEC §7).
using Execute = std::function<int(const CommandContext&)>;

struct Command {
  std::string name;
  std::string help;
  // Declares the subcommand's options on `sub` and returns its action, which reads the values
  // they receive (typically a struct of flags held by the returned closure).
  std::function<Execute(CLI::App& sub)> declare;
};

}  // namespace convcheck
