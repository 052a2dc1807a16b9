// The libFuzzer runtime as convcheck drives it: LLVMFuzzerRunDriver with a session's test,
// mutation and cross-over functions behind libFuzzer's C hooks, and the extra-counters section
// the features are written to. Used by the fuzz engine only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace convcheck {

// What libFuzzer calls back into, for the one session a process runs.
class FuzzHooks {
 public:
  virtual ~FuzzHooks() = default;
  virtual int testOne(const std::uint8_t* data, std::size_t size) = 0;
  virtual std::size_t mutate(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                             unsigned seed) = 0;
  virtual std::size_t crossOver(const std::uint8_t* a, std::size_t sizeA, const std::uint8_t* b,
                                std::size_t sizeB, std::uint8_t* out, std::size_t maxOut,
                                unsigned seed) = 0;
  // libFuzzer is done and the process is exiting (called from an atexit handler).
  virtual void finished() {}
};

// libFuzzer's extra counters: cleared by libFuzzer before each input, read after it.
std::span<std::uint8_t> extraCounters();

// Runs libFuzzer with `args` (args[0] the program name, then libFuzzer flags and corpus
// directories) and `hooks`, and ends the process when libFuzzer is done (exit 0), after
// hooks.finished(), without running the exit-time work of a process it was forked from.
[[noreturn]] void runLibFuzzer(const std::vector<std::string>& args, FuzzHooks& hooks);

}  // namespace convcheck
