#include "app/cli/command_table.h"

namespace convcheck {

// Each defined in the file named after it.
Command runCommand();
Command mergeCommand();
Command replayCommand();
Command minimizeCommand();
Command fuzzCommand();
Command upgradeCommand();
Command diffCommand();
Command generateCommand();
Command propertiesCommand();
Command certsCommand();
Command helpCommand();
Command versionCommand();
Command completionCommand();

std::vector<Command> commandTable() {
  std::vector<Command> table;
  table.push_back(runCommand());
  table.push_back(mergeCommand());
  table.push_back(replayCommand());
  table.push_back(minimizeCommand());
  table.push_back(fuzzCommand());
  table.push_back(upgradeCommand());
  table.push_back(diffCommand());
  table.push_back(generateCommand());
  table.push_back(propertiesCommand());
  table.push_back(certsCommand());
  table.push_back(helpCommand());
  table.push_back(versionCommand());
  table.push_back(completionCommand());
  return table;
}

}  // namespace convcheck
