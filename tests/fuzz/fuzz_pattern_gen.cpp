// libFuzzer target: a schema `pattern` (Go RE2 syntax) compiled by PatternGenerator, one string
// generated within bounds taken from the input, and that string checked against RE2.
#include <cstddef>
#include <cstdint>
#include <string>

#include <rapidcheck.h>

#include "generators/pattern/pattern_gen.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t minLen = data[0] & 0x0f;
  const std::optional<std::size_t> maxLen =
      (data[0] & 0x80) ? std::nullopt
                       : std::optional<std::size_t>(minLen + ((data[0] >> 4) & 7) * 4);
  const std::string pattern(reinterpret_cast<const char*>(data + 1), size - 1);
  auto compiled = convcheck::PatternGenerator::compile(pattern);
  auto* generator = std::get_if<convcheck::PatternGenerator>(&compiled);
  if (!generator) return 0;
  if (generator->boundsError(minLen, maxLen)) return 0;
  try {
    auto value = generator->gen(minLen, maxLen)(rc::Random(size), 10).value();
    if (!generator->matches(value)) __builtin_trap();  // every value must match
  } catch (const rc::GenerationFailure&) {
    // Documented: no matching string found within the attempts.
  }
  return 0;
}
