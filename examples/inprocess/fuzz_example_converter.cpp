// The template (converter_fuzz_template.cpp) filled in for the example webhook's converter
// (examples/webhook/object_converter): its object-level faults are chosen by
// CONVCHECK_EXAMPLE_FAULTS (names as --fault takes them, comma-separated; empty: correct), the CRD
// by CONVCHECK_CRD (default: the example Widget CRD).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/inprocess/converter_fuzzer.h"
#include "examples/webhook/faults.h"
#include "examples/webhook/object_converter.h"

namespace {

using convcheck::inprocess::ConvertedObject;
using convcheck::inprocess::ConverterFuzzer;

// The faults CONVCHECK_EXAMPLE_FAULTS names; exits 2 naming an unknown one.
convcheck::example::FaultSet exampleFaultsFromEnvironment() {
  std::vector<std::string> names;
  if (const char* value = std::getenv("CONVCHECK_EXAMPLE_FAULTS")) {
    std::istringstream list(value);
    for (std::string name; std::getline(list, name, ',');)
      if (!name.empty()) names.push_back(name);
  }
  auto parsed = convcheck::example::parseFaultNames(names);
  if (!parsed.error.empty()) {
    std::fprintf(stderr, "convcheck: CONVCHECK_EXAMPLE_FAULTS: %s\n", parsed.error.c_str());
    std::exit(2);
  }
  return parsed.faults;
}

ConverterFuzzer* exampleFuzzer = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  convcheck::inprocess::FuzzerOptions defaults;
  defaults.crdFile = CONVCHECK_EXAMPLES_DIR "/crds/widgets.example.convcheck.dev.yaml";
  defaults.command = (*argv)[0];
  const convcheck::example::FaultSet faults = exampleFaultsFromEnvironment();
  auto convert = [faults](const nlohmann::json& object, const std::string& desiredAPIVersion) {
    convcheck::example::ConversionOutcome outcome =
        convcheck::example::convertObject(object, desiredAPIVersion, faults);
    return ConvertedObject{std::move(outcome.object), std::move(outcome.error)};
  };
  try {
    static ConverterFuzzer fuzzer(convcheck::inprocess::optionsFromEnvironment(defaults),
                                  convcheck::inprocess::ObjectFunction(convert));
    exampleFuzzer = &fuzzer;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "convcheck: %s\n", e.what());
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return exampleFuzzer->testOneInput(data, size);
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t maxSize, unsigned int seed) {
  return exampleFuzzer->mutate(data, size, maxSize, seed);
}

extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* data1, std::size_t size1,
                                                 const std::uint8_t* data2, std::size_t size2,
                                                 std::uint8_t* out, std::size_t maxOutSize,
                                                 unsigned int seed) {
  return exampleFuzzer->crossOver(data1, size1, data2, size2, out, maxOutSize, seed);
}
