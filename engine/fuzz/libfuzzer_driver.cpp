#include "engine/fuzz/libfuzzer_driver.h"

#include <cstdio>
#include <cstdlib>

extern "C" {
int LLVMFuzzerRunDriver(int* argc, char*** argv,
                        int (*userCallback)(const std::uint8_t* data, std::size_t size));
}

namespace convcheck {
namespace {

// libFuzzer's hooks take no context: the session a process runs is reached through this.
FuzzHooks* activeHooks = nullptr;

// libFuzzer finds the counters by this section's bounds (__start_/__stop_ symbols); it needs no
// compiler instrumentation, so a g++ build works as a clang one.
__attribute__((section("__libfuzzer_extra_counters"), used)) std::uint8_t counters[1 << 16];

// The hooks hear that fuzzing is done, and the process ends there: without the exit-time work
// that belongs to the process it was forked from (static destructors, a sanitizer's leak check of
// memory that process owns).
[[noreturn]] void endFuzzingProcess(int code) {
  if (activeHooks) activeHooks->finished();
  std::fflush(nullptr);
  std::_Exit(code);
}

int testOneInput(const std::uint8_t* data, std::size_t size) {
  return activeHooks->testOne(data, size);
}

}  // namespace

std::span<std::uint8_t> extraCounters() { return {counters, sizeof counters}; }

void runLibFuzzer(const std::vector<std::string>& args, FuzzHooks& hooks) {
  activeHooks = &hooks;
  std::atexit([] { endFuzzingProcess(0); });  // libFuzzer's exit(0) when its budget is spent
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  char** argvp = argv.data();
  endFuzzingProcess(LLVMFuzzerRunDriver(&argc, &argvp, testOneInput));
}

}  // namespace convcheck

// libFuzzer looks for these sanitizer hooks and warns on the console ("WARNING: Failed to find
// function __sanitizer_...") when no sanitizer runtime brings them, as in convcheck's own build.
// Weak: a sanitizer runtime's (the asan build's) take their place. Without a sanitizer there is no
// crash state to take (1: taken), no stack to print and no death callback to call.
extern "C" __attribute__((weak)) int __sanitizer_acquire_crash_state() { return 1; }
extern "C" __attribute__((weak)) void __sanitizer_print_stack_trace() {}
extern "C" __attribute__((weak)) void __sanitizer_set_death_callback(void (*)(void)) {}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t maxSize, unsigned int seed) {
  return convcheck::activeHooks->mutate(data, size, maxSize, seed);
}

extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* data1, std::size_t size1,
                                                 const std::uint8_t* data2, std::size_t size2,
                                                 std::uint8_t* out, std::size_t maxOutSize,
                                                 unsigned int seed) {
  return convcheck::activeHooks->crossOver(data1, size1, data2, size2, out, maxOutSize, seed);
}
