// In-process fuzzing of a C++ conversion function: libFuzzer bytes as valid cases of a CRD, judged
// by every property `convcheck run` checks. Used by fuzz targets made from the template in
// examples/inprocess. A thin adaptor: the engine's fuzz inputs, its in-process target kind (the
// function) and its case judge do the work; this header holds the options and the verdict.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/fuzz/fuzz_case.h"
#include "harness/transport/function_target.h"
#include "kube/apiserver/review.h"
#include "kube/crd/crd.h"

namespace convcheck::inprocess {

// The shapes of conversion function the fuzzer takes (harness/transport/function_target.h).
using convcheck::ConvertedObject;
using convcheck::ObjectFunction;
using convcheck::ReviewFunction;

struct FuzzerOptions {
  std::string crdFile;  // the CRD (YAML or JSON; a file may hold several)
  std::string crdName;  // which CRD of the file (metadata.name); "": the first
  std::string reportDir = "convcheck-inprocess";  // where a failure's files are written
  std::size_t maxBatch = 8;                       // objects in one case at most
  int shrinkBudget = 200;                         // conversions spent shrinking a failure
  std::chrono::milliseconds timeout{30000};       // the timeout property's bound for one call
  ReviewVersion reviewVersion = ReviewVersion::V1;
  std::string command;  // how to run the fuzz target again, recorded in bundles
};

// `defaults` with what the environment sets: CONVCHECK_CRD, CONVCHECK_CRD_NAME,
// CONVCHECK_REPORT_DIR, CONVCHECK_MAX_BATCH, CONVCHECK_SHRINK_BUDGET, CONVCHECK_REVIEW_VERSION
// (v1 or v1beta1). Throws std::runtime_error naming the variable for a value it cannot use.
FuzzerOptions optionsFromEnvironment(FuzzerOptions defaults);

// A property an input broke: where (the part of the case, the version pair) and why (the cause).
struct Failure {
  std::string property;
  std::string part;  // forward, backward or composite
  std::string from, to;
  std::string cause;  // the cause's key
};

// What the engine made of an input (its every property's result); report() reads it.
struct JudgedCase;

// One input judged: the case its bytes stand for, the seed it ran with, what failed.
struct Verdict {
  FuzzCase fuzzCase;
  std::uint64_t seed = 0;
  std::vector<Failure> failures;  // each failing (property, part, pair, cause)
  std::shared_ptr<const JudgedCase> judged;
  bool failed() const { return !failures.empty(); }
};

// What report() printed and wrote for a failure.
struct FailureReport {
  std::string text;        // the problem, its diff and how to replay it
  std::string bundle;      // the bundle directory ("" when it could not be written)
  std::string regression;  // the regression case for `convcheck run --corpus`
  std::string shrunkCase;  // the shrunk case as fuzz input bytes: the target replays it
};

class ConverterFuzzer {
 public:
  // Loads and compiles the CRD; throws std::runtime_error naming the file, the CRD and the
  // version when it cannot (no such file, a schema convcheck cannot generate from, fewer than two
  // versions with a schema).
  ConverterFuzzer(FuzzerOptions options, ReviewFunction convert);
  ConverterFuzzer(FuzzerOptions options, ObjectFunction convert);
  ~ConverterFuzzer();
  ConverterFuzzer(const ConverterFuzzer&) = delete;
  ConverterFuzzer& operator=(const ConverterFuzzer&) = delete;

  const Crd& crd() const;
  const FuzzKind& kind() const;

  // Decodes `data` to a case and judges it: a function of the bytes.
  Verdict judge(const std::uint8_t* data, std::size_t size);
  // Shrinks the verdict's first failure, writes its bundle, its regression case and the shrunk
  // case under reportDir, and returns the text to print.
  FailureReport report(const Verdict& verdict);

  // libFuzzer's hooks. testOneInput judges the input; on a failure it prints report()'s text to
  // stderr and aborts, so that libFuzzer saves the input as a crash.
  int testOneInput(const std::uint8_t* data, std::size_t size);
  // A valid mutant of the case `data` stands for, at most `maxSize` bytes, written over `data`.
  std::size_t mutate(std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned seed);
  std::size_t crossOver(const std::uint8_t* a, std::size_t sizeA, const std::uint8_t* b,
                        std::size_t sizeB, std::uint8_t* out, std::size_t maxOut, unsigned seed);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace convcheck::inprocess
