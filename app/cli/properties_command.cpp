// `convcheck properties [--markdown]`: the registry's properties, as a table. Listed in
// command_table.cpp.
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "properties/checks/property_registry.h"

namespace convcheck {
namespace {

Execute declarePropertiesOptions(CLI::App& sub) {
  auto markdown = std::make_shared<bool>(false);
  sub.add_flag("--markdown", *markdown, "Print the README's table of properties");
  return [markdown](const CommandContext& c) {
    c.out << propertyTable(*markdown);
    return 0;
  };
}

}  // namespace

Command propertiesCommand() {
  return {"properties", "List the properties: id, what holds, when it is judged, the calls it adds",
          declarePropertiesOptions};
}

}  // namespace convcheck
