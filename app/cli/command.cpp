#include "app/cli/command.h"

#include <ostream>

namespace convcheck {

int usageError(std::ostream& err, const std::string& error) {
  err << "convcheck: " << error << "\n";
  return 2;
}

}  // namespace convcheck
