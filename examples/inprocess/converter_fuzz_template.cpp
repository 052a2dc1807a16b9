// A libFuzzer target that fuzzes a C++ CRD conversion function in this process: each input
// libFuzzer makes is decoded into a batch of schema-valid objects of your CRD and a desired
// version, converted by your function, and judged by every property `convcheck run` checks
// (round-trip, order, uid echo, metadata, schema-valid, determinism, ...). Mutations go through
// convcheck's schema-level mutator, so every input stays a valid case.
//
// To use it: copy this file, change the two places marked CHANGE, and build it with clang:
//   -fsanitize=fuzzer,address,undefined for this file and your converter (the converter's
//   branches are the feedback), linked with convcheck's library convcheck_inprocess
//   (in CMake: target_link_libraries(my_converter_fuzz PRIVATE convcheck_inprocess)).
// Run it:
//   export CONVCHECK_CRD=config/crd/bases/widgets.yaml
//   ./my_converter_fuzz corpus/ -max_len=65536 -max_total_time=600
// The environment sets CONVCHECK_CRD, CONVCHECK_CRD_NAME (a file with several CRDs),
// CONVCHECK_REPORT_DIR (default convcheck-inprocess), CONVCHECK_MAX_BATCH (objects per case, 8),
// CONVCHECK_SHRINK_BUDGET (200) and CONVCHECK_REVIEW_VERSION (v1 or v1beta1).
// A failure prints the property, the shrunk case and its diff, writes a bundle, a regression case
// and the shrunk case under the report directory, and aborts: libFuzzer saves the input as
// crash-<sha1>, and `./my_converter_fuzz crash-<sha1>` (or the shrunk case file) runs it again.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/inprocess/converter_fuzzer.h"

namespace {

using convcheck::inprocess::ConvertedObject;
using convcheck::inprocess::ConverterFuzzer;

// CHANGE: call your converter here. Return the object converted to `desiredAPIVersion`
// ("group/version"), or {nullptr, "why"} when it cannot be converted (the review then fails, as
// your webhook would answer). A whole review handler fits too: construct the ConverterFuzzer
// with a `nlohmann::json(const nlohmann::json& review)` function instead.
// This placeholder rewrites apiVersion only: right for a CRD whose versions share one schema.
ConvertedObject convertToVersion(const nlohmann::json& object,
                                 const std::string& desiredAPIVersion) {
  nlohmann::json converted = object;
  converted["apiVersion"] = desiredAPIVersion;
  return {std::move(converted), ""};
}

// libFuzzer's hooks take no context: they reach the process's one fuzzer through this.
ConverterFuzzer* templateFuzzer = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  convcheck::inprocess::FuzzerOptions defaults;
  defaults.crdFile = "";  // CHANGE: your CRD file (CONVCHECK_CRD overrides it)
  defaults.command = (*argv)[0];
  try {
    static ConverterFuzzer fuzzer(convcheck::inprocess::optionsFromEnvironment(defaults),
                                  convertToVersion);
    templateFuzzer = &fuzzer;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "convcheck: %s\n", e.what());
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return templateFuzzer->testOneInput(data, size);
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t maxSize, unsigned int seed) {
  return templateFuzzer->mutate(data, size, maxSize, seed);
}

extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* data1, std::size_t size1,
                                                 const std::uint8_t* data2, std::size_t size2,
                                                 std::uint8_t* out, std::size_t maxOutSize,
                                                 unsigned int seed) {
  return templateFuzzer->crossOver(data1, size1, data2, size2, out, maxOutSize, seed);
}
