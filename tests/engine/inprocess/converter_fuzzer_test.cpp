// The in-process fuzzer's library on the example webhook's converter: a correct converter passes
// every input, a faulty one is found, its failure is reported with replayable files, and an input
// is judged the same way each time.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/inprocess/converter_fuzzer.h"
#include "examples/webhook/object_converter.h"
#include "examples/webhook/review_handler.h"
#include "harness/corpus/corpus_store.h"
#include "reports/bundle_reader.h"
#include "tests/engine/inprocess/scratch_dir.h"

namespace convcheck::inprocess {
namespace {

using example::Fault;
using example::FaultSet;
using nlohmann::json;
namespace fs = std::filesystem;

const std::string kWidgetCrd =
    std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/widgets.example.convcheck.dev.yaml";
const std::string kCronTabCrd =
    std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/crontabs.stable.example.com.yaml";

FuzzerOptions optionsFor(const std::string& crd, const fs::path& reportDir) {
  FuzzerOptions o;
  o.crdFile = crd;
  o.reportDir = reportDir.string();
  o.command = "fuzz_example_converter";
  return o;
}

ObjectFunction exampleConverter(FaultSet faults) {
  return [faults](const json& object, const std::string& desired) {
    example::ConversionOutcome outcome = example::convertObject(object, desired, faults);
    return ConvertedObject{std::move(outcome.object), std::move(outcome.error)};
  };
}

// Inputs as libFuzzer makes them from an empty corpus: a fresh input, then mutants of it through
// the fuzzer's mutator, a fresh one again every eighth input. The first failing one, if any.
std::optional<Verdict> firstFailure(ConverterFuzzer& fuzzer, int inputs) {
  std::vector<std::uint8_t> buffer(1 << 20);
  std::size_t size = 0;
  for (int i = 0; i < inputs; ++i) {
    if (i % 8 == 0) {
      const std::string fresh = "input-" + std::to_string(i);
      std::copy(fresh.begin(), fresh.end(), buffer.begin());
      size = fresh.size();
    } else {
      size = fuzzer.mutate(buffer.data(), size, buffer.size(), static_cast<unsigned>(i));
    }
    Verdict v = fuzzer.judge(buffer.data(), size);
    if (v.failed()) return v;
  }
  return std::nullopt;
}

std::string describe(ConverterFuzzer& fuzzer, const std::optional<Verdict>& v) {
  return v ? fuzzer.report(*v).text : "no failure";
}

TEST(InProcessFuzzer, TheCorrectExampleConverterPassesEveryWidgetInput) {
  const testing::ScratchDir scratch("clean-widget");
  ConverterFuzzer fuzzer(optionsFor(kWidgetCrd, scratch.path), exampleConverter({}));
  auto failure = firstFailure(fuzzer, 200);
  EXPECT_FALSE(failure) << describe(fuzzer, failure);
}

TEST(InProcessFuzzer, TheCorrectExampleConverterPassesEveryCronTabInput) {
  const testing::ScratchDir scratch("clean-crontab");
  ConverterFuzzer fuzzer(optionsFor(kCronTabCrd, scratch.path), exampleConverter({}));
  auto failure = firstFailure(fuzzer, 200);
  EXPECT_FALSE(failure) << describe(fuzzer, failure);
}

TEST(InProcessFuzzer, ALossyRoundTripIsFoundAndReportedWithReplayableFiles) {
  const testing::ScratchDir scratch("lossy");
  const fs::path& dir = scratch.path;
  ConverterFuzzer fuzzer(optionsFor(kWidgetCrd, dir), exampleConverter({Fault::LossyRoundTrip}));
  auto failure = firstFailure(fuzzer, 400);
  ASSERT_TRUE(failure) << "the capped replicas were not found in 400 inputs";
  EXPECT_EQ(failure->failures.front().property, "round-trip");

  const FailureReport report = fuzzer.report(*failure);
  EXPECT_NE(report.text.find("round-trip"), std::string::npos) << report.text;
  EXPECT_NE(report.text.find("spec.replicas"), std::string::npos) << report.text;
  EXPECT_NE(report.text.find("diff (expected -> got)"), std::string::npos) << report.text;
  // The bundle reads back as `convcheck replay` reads it; the corpus holds the regression that
  // `convcheck run --corpus` tries first.
  auto bundle = readBundle(report.bundle);
  ASSERT_TRUE(std::holds_alternative<Bundle>(bundle)) << std::get<std::string>(bundle);
  EXPECT_EQ(std::get<Bundle>(bundle).property, "round-trip");
  EXPECT_EQ(std::get<Bundle>(bundle).caseTo, failure->fuzzCase.to);
  const CorpusContents corpus = CorpusStore((dir / "corpus").string()).load(fuzzer.crd());
  ASSERT_EQ(corpus.regressions.size(), 1u) << ::testing::PrintToString(corpus.notes);
  EXPECT_TRUE(fs::exists(report.regression)) << report.regression;
  ASSERT_TRUE(fs::exists(report.shrunkCase)) << report.shrunkCase;

  // The shrunk case, given to the target as an input, fails the same property again.
  std::ifstream in(report.shrunkCase);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Verdict again =
      fuzzer.judge(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  ASSERT_TRUE(again.failed()) << bytes;
  EXPECT_EQ(again.failures.front().property, "round-trip");
  // Shrunk: smaller than the input that failed (the batch keeps its first object's version, as
  // the failure is of that pair).
  EXPECT_LT(bytes.size(), encodeFuzzCase(failure->fuzzCase).size()) << bytes;
  EXPECT_NE(bytes.find("\"replicas\""), std::string::npos) << bytes;
}

TEST(InProcessFuzzer, AReportDirectoryThatCannotBeWrittenIsSaidInTheReport) {
  const testing::ScratchDir scratch("not-a-dir");
  const fs::path file = scratch.path / "file";
  std::ofstream(file) << "a file where the report directory would be";
  ConverterFuzzer fuzzer(optionsFor(kWidgetCrd, file / "report"),
                         exampleConverter({Fault::LossyRoundTrip}));
  auto failure = firstFailure(fuzzer, 400);
  ASSERT_TRUE(failure);
  const FailureReport report = fuzzer.report(*failure);
  EXPECT_TRUE(report.bundle.empty());
  EXPECT_NE(report.text.find("could not write the bundle"), std::string::npos) << report.text;
  EXPECT_NE(report.text.find("could not store the regression case"), std::string::npos)
      << report.text;
  EXPECT_NE(report.text.find("diff (expected -> got)"), std::string::npos) << report.text;
}

TEST(InProcessFuzzer, AnInputIsJudgedTheSameWayEachTime) {
  const testing::ScratchDir scratch("same-way");
  ConverterFuzzer fuzzer(optionsFor(kCronTabCrd, scratch.path),
                         exampleConverter({Fault::LossyRoundTrip}));
  auto failure = firstFailure(fuzzer, 400);
  ASSERT_TRUE(failure) << "the truncated image was not found in 400 inputs";
  const std::string bytes = encodeFuzzCase(failure->fuzzCase);
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  const Verdict first = fuzzer.judge(data, bytes.size());
  const Verdict second = fuzzer.judge(data, bytes.size());
  ASSERT_TRUE(first.failed());
  ASSERT_EQ(first.failures.size(), second.failures.size());
  for (std::size_t i = 0; i < first.failures.size(); ++i) {
    EXPECT_EQ(first.failures[i].property, second.failures[i].property);
    EXPECT_EQ(first.failures[i].cause, second.failures[i].cause);
  }
}

TEST(InProcessFuzzer, AReviewHandlerThatDropsTheUidFailsUidEcho) {
  const testing::ScratchDir scratch("uid");
  const FaultSet faults{Fault::UidNotEchoed};
  ReviewFunction handler = [faults](const json& review) {
    return json::parse(
        example::handleConversionReview("application/json", review.dump(), faults).body);
  };
  ConverterFuzzer fuzzer(optionsFor(kWidgetCrd, scratch.path), handler);
  auto failure = firstFailure(fuzzer, 8);
  ASSERT_TRUE(failure);
  std::vector<std::string> properties;
  for (const auto& f : failure->failures) properties.push_back(f.property);
  EXPECT_NE(std::find(properties.begin(), properties.end(), "uid-echo"), properties.end())
      << ::testing::PrintToString(properties);
}

TEST(InProcessFuzzer, AConverterThatThrowsIsAFailedReviewNotACrash) {
  const testing::ScratchDir scratch("throws");
  ObjectFunction throwing = [](const json&, const std::string&) -> ConvertedObject {
    throw std::out_of_range("map::at");
  };
  ConverterFuzzer fuzzer(optionsFor(kWidgetCrd, scratch.path), throwing);
  auto failure = firstFailure(fuzzer, 1);
  ASSERT_TRUE(failure);
  const FailureReport report = fuzzer.report(*failure);
  EXPECT_NE(report.text.find("the conversion function threw: map::at"), std::string::npos)
      << report.text;
}

TEST(InProcessFuzzer, AMissingCrdFileIsAnErrorNamingIt) {
  const testing::ScratchDir scratch("missing-crd");
  try {
    ConverterFuzzer fuzzer(optionsFor("/nonexistent/widgets.yaml", scratch.path),
                           exampleConverter({}));
    FAIL() << "constructed without a CRD";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/widgets.yaml"), std::string::npos)
        << e.what();
  }
}

TEST(InProcessFuzzer, AnUnusableEnvironmentValueIsAnErrorNamingTheVariable) {
  ::setenv("CONVCHECK_MAX_BATCH", "0", 1);
  EXPECT_THROW(
      {
        try {
          optionsFromEnvironment({});
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("CONVCHECK_MAX_BATCH=0"), std::string::npos)
              << e.what();
          throw;
        }
      },
      std::runtime_error);
  ::setenv("CONVCHECK_MAX_BATCH", "3", 1);
  ::setenv("CONVCHECK_CRD", "widgets.yaml", 1);
  const FuzzerOptions o = optionsFromEnvironment({});
  EXPECT_EQ(o.maxBatch, 3u);
  EXPECT_EQ(o.crdFile, "widgets.yaml");
  ::unsetenv("CONVCHECK_MAX_BATCH");
  ::unsetenv("CONVCHECK_CRD");
}

}  // namespace
}  // namespace convcheck::inprocess
