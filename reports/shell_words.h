// Words for a POSIX shell: one argument quoted when it needs it, and a whole command line of them,
// as reproduction lines, curl commands and replay lines print them. Used by reports/ and app/.
#pragma once

#include <string>
#include <vector>

namespace convcheck {

// `s` as one shell word: as it is when it holds only letters, digits and @%+=:,./-_, else
// single-quoted (a quote inside written '\'').
std::string shellQuote(const std::string& s);

// `args` as one command line: each quoted by shellQuote, joined by spaces.
std::string shellCommand(const std::vector<std::string>& args);

}  // namespace convcheck
