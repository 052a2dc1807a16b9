// A run's time budget: testing leaves shrinking a quarter once a problem waits, shrinking leaves
// the reports a twentieth, and parts run one after another share what is left equally.
#include "engine/run/run_budget.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

const RunBudget::Clock::time_point t0{seconds(1000)};

TEST(RunBudget, TestingTakesAllButTheReportsShareUntilAProblemWaitsToBeShrunk) {
  const RunBudget budget(t0, seconds(40));
  EXPECT_EQ(budget.end(), t0 + seconds(40));
  EXPECT_EQ(budget.testingEnd(false), t0 + seconds(38));
  EXPECT_EQ(budget.testingEnd(true), t0 + seconds(30));
  EXPECT_EQ(budget.shrinkingEnd(), t0 + seconds(38));
}

TEST(RunBudget, APartGetsAnEqualShareOfWhatIsLeftSoTimeUnusedGoesToTheNext) {
  const auto end = t0 + seconds(60);
  EXPECT_EQ(RunBudget::shareEnd(t0, end, 3), t0 + seconds(20));
  // The first part ended after 5 s: the two after it share the 55 s left.
  EXPECT_EQ(RunBudget::shareEnd(t0 + seconds(5), end, 2), t0 + seconds(5) + milliseconds(27500));
  EXPECT_EQ(RunBudget::shareEnd(t0 + seconds(30), end, 1), end);
  EXPECT_EQ(RunBudget::shareEnd(t0 + seconds(70), end, 2), t0 + seconds(70));
}

TEST(RunBudget, TheRestOfABudgetStartsNowAndIsNeverNegative) {
  const RunBudget budget(t0, seconds(60));
  const RunBudget kind = budget.rest(t0 + seconds(6), 2);
  EXPECT_EQ(kind.start(), t0 + seconds(6));
  EXPECT_EQ(kind.total(), seconds(27));
  EXPECT_EQ(budget.rest(t0 + seconds(61), 1).total(), milliseconds(0));
}

}  // namespace
}  // namespace convcheck
