// Whether console output is coloured: --color auto|always|never, NO_COLOR and TERM=dumb. Used by
// run_command.cpp for the console report and the progress line.
#pragma once

#include <string>

namespace convcheck {

// TERM names a terminal that cannot move the cursor or colour ("dumb").
bool dumbTerminal(const char* term);

// always: yes (even with NO_COLOR set, for CI logs that render colour); never: no; auto: when the
// output is a terminal, NO_COLOR is unset (or empty) and TERM is not dumb. Reads the environment.
bool useColour(const std::string& choice, bool outputIsTerminal);

// The same rule with the environment given (NO_COLOR's and TERM's values, null when unset).
bool useColour(const std::string& choice, bool outputIsTerminal, const char* noColor,
               const char* term);

}  // namespace convcheck
