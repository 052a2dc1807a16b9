// convcheck's entry point: hands the arguments to the CLI and returns its exit code (SPEC §7).
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/cli.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return convcheck::runCli(args, std::cin, std::cout, std::cerr);
}
