// `convcheck help [SUBCOMMAND]`: the usage and options of convcheck or of one subcommand (as
// `--help` prints them). Listed in command_table.cpp.
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/command.h"

namespace convcheck {
namespace {

Execute declareHelpOptions(CLI::App& sub) {
  auto name = std::make_shared<std::string>();
  std::vector<std::string> names;
  for (const CLI::App* command : sub.get_parent()->get_subcommands({}))
    names.push_back(command->get_name());
  sub.add_option("SUBCOMMAND", *name, "The subcommand to describe")->check(CLI::IsMember(names));
  return [name](const CommandContext& c) {
    // Not c.root.help(): after parsing it describes the subcommand given, `help` itself.
    c.out << (name->empty() ? c.root.get_formatter()->make_help(&c.root, c.root.get_name(),
                                                                CLI::AppFormatMode::Normal)
                            : c.root.get_subcommand(*name)->help(c.root.get_name()));
    return 0;
  };
}

}  // namespace

Command helpCommand() {
  return {"help", "Show the usage and options of convcheck or of one subcommand",
          declareHelpOptions};
}

}  // namespace convcheck
