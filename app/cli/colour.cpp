#include "app/cli/colour.h"

#include <cstdlib>
#include <cstring>

namespace convcheck {

bool dumbTerminal(const char* term) { return term != nullptr && std::strcmp(term, "dumb") == 0; }

bool useColour(const std::string& choice, bool outputIsTerminal, const char* noColor,
               const char* term) {
  if (choice == "always") return true;
  if (choice == "never") return false;
  const bool noColorSet = noColor != nullptr && noColor[0] != '\0';  // no-color.org: non-empty
  return outputIsTerminal && !noColorSet && !dumbTerminal(term);
}

bool useColour(const std::string& choice, bool outputIsTerminal) {
  return useColour(choice, outputIsTerminal, std::getenv("NO_COLOR"), std::getenv("TERM"));
}

}  // namespace convcheck
