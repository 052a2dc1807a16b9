// libFuzzer's command line for a fuzzing process: --runs counts cases, so libFuzzer's -runs counts
// its empty probe (one case) and then inputs of a flight each.
#include "engine/fuzz/fuzz_processes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace convcheck {
namespace {

std::string runsFlag(std::int64_t runs, int inFlight) {
  FuzzConfig config;
  config.runs = runs;
  config.inFlight = inFlight;
  const auto args = libFuzzerArgs(config, "/tmp/inputs", 0);
  const auto flag = std::find_if(args.begin(), args.end(),
                                 [](const std::string& a) { return a.rfind("-runs=", 0) == 0; });
  return flag == args.end() ? "" : *flag;
}

TEST(LibFuzzerArgs, RunsAreTheProbeThenFlightsOfCases) {
  EXPECT_EQ(runsFlag(150, 2), "-runs=76");  // 1 + 149 cases in 75 flights of two
  EXPECT_EQ(runsFlag(40, 64), "-runs=2");
  EXPECT_EQ(runsFlag(129, 64), "-runs=3");
  EXPECT_EQ(runsFlag(130, 64), "-runs=4");
  EXPECT_EQ(runsFlag(20, 1), "-runs=20");
  EXPECT_EQ(runsFlag(1, 64), "-runs=1");
  EXPECT_EQ(runsFlag(-1, 64), "");
}

}  // namespace
}  // namespace convcheck
