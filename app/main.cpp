// convcheck's entry point: hands the arguments to the CLI and returns its exit code (SPEC §7).
#include <malloc.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "app/cli/cli.h"

int main(int argc, char** argv) {
  // glibc gives each thread that allocates its own arena, up to eight per core, and each arena
  // keeps what was freed in it: with --jobs threads converting large batches, the freed memory of
  // every arena adds up to several times what is live. One arena per core keeps the peak close to
  // the live data at no measurable cost in speed (bench/memory_run.sh).
  mallopt(M_ARENA_MAX, static_cast<int>(std::max(2u, std::thread::hardware_concurrency())));
  std::vector<std::string> args(argv + 1, argv + argc);
  return convcheck::runCli(args, std::cin, std::cout, std::cerr);
}
