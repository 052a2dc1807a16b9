// One fuzzing process's session: the cases of an input are in flight at once (each over a
// connection of its own), their behaviour is the input's, and --runs counts cases, not inputs.
#include "engine/fuzz/fuzz_session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <variant>

#include "tests/engine/run/example_crd.h"
#include "tests/engine/run/in_process_target.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;

class FuzzSessionTest : public ::testing::Test {
 protected:
  FuzzSessionTest()
      : kind_(std::get<KindContext>(
            KindContext::compile(testing::loadExampleCrd("widgets.example.convcheck.dev.yaml")))) {
    char path[] = "/tmp/convcheck-fuzz-session-XXXXXX";
    if (mkdtemp(path)) dir_ = path;
    config_.target.url = "inprocess://example";
    config_.run.maxBatchSize = 4;
    config_.progressSeconds = 3600;
  }
  ~FuzzSessionTest() override { fs::remove_all(dir_); }

  // Runs one input (a generated case and its mutants) through a session whose calls each take
  // `delay`; returns the most calls that were in flight at once.
  int callsAtOnce(std::chrono::milliseconds delay) {
    std::atomic<int> now{0}, most{0};
    FuzzSession session(
        kind_, config_,
        [&](const ResolvedTarget&) {
          return std::make_unique<testing::CountingTarget>(now, most, delay);
        },
        dir_, 0);
    testOne(session, "x");
    return most.load();
  }

  // A session of config_ against the example webhook's conversion in process.
  std::unique_ptr<FuzzSession> session() {
    return std::make_unique<FuzzSession>(
        kind_, config_,
        [](const ResolvedTarget&) {
          return std::make_unique<testing::ExampleTarget>(example::FaultSet{});
        },
        dir_, 0);
  }

  FuzzStats statsAfter(int inputs) {
    {
      auto fuzzing = session();
      for (int i = 0; i < inputs; ++i) testOne(*fuzzing, std::to_string(i));
      fuzzing->finished();
    }
    return readFuzzStats(dir_);
  }

  static void testOne(FuzzSession& session, const std::string& bytes) {
    session.testOne(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }

  // The features of the input "x" (a case generated from it, then its mutants up to the flight).
  std::vector<std::string> featuresOfAnInput() {
    auto fuzzing = session();
    testOne(*fuzzing, "x");
    return fuzzing->features().names();
  }

  KindContext kind_;
  std::string dir_;
  FuzzConfig config_;
};

TEST_F(FuzzSessionTest, TheCasesOfAnInputAreInFlightAtOnce) {
  config_.inFlight = 8;
  EXPECT_GT(callsAtOnce(std::chrono::milliseconds(20)), 1);
}

TEST_F(FuzzSessionTest, AFlightOfOneMakesOneCallAtATime) {
  config_.inFlight = 1;
  EXPECT_EQ(callsAtOnce(std::chrono::milliseconds(1)), 1);
}

TEST_F(FuzzSessionTest, EachInputRunsAFlightOfCases) {
  config_.inFlight = 8;
  EXPECT_EQ(statsAfter(3).execs, 24);
}

// libFuzzer's probe of the callback, before it reads the corpus.
TEST_F(FuzzSessionTest, TheEmptyInputIsOneCase) {
  config_.inFlight = 8;
  {
    auto fuzzing = session();
    fuzzing->testOne(nullptr, 0);
    fuzzing->finished();
  }
  EXPECT_EQ(readFuzzStats(dir_).execs, 1);
}

TEST_F(FuzzSessionTest, RunsCountsCasesSoTheLastInputRunsFewer) {
  config_.inFlight = 8;
  config_.runs = 20;
  EXPECT_EQ(statsAfter(4).execs, 20);
}

TEST_F(FuzzSessionTest, TheFeaturesOfAnInputAreThoseOfAllItsCases) {
  config_.inFlight = 6;
  const std::vector<std::string> flight = featuresOfAnInput();
  // Its first case alone (a flight of one) shows no feature the flight lacks.
  config_.inFlight = 1;
  const std::vector<std::string> single = featuresOfAnInput();
  for (const auto& name : single) {
    if (name.find("|latency|") != std::string::npos) continue;  // timings vary
    EXPECT_NE(std::find(flight.begin(), flight.end(), name), flight.end()) << name;
  }
  EXPECT_GT(flight.size(), single.size());
}

}  // namespace
}  // namespace convcheck
