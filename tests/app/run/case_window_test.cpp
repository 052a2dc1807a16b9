// The case window: a pair's cases run side by side on the case executors and come back in plan
// order, within the window's limits, against the example webhook converting in this process.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/run/case_window.h"
#include "tests/app/run/example_crd.h"
#include "tests/app/run/in_process_target.h"

namespace convcheck {
namespace {

using nlohmann::json;

struct Pair {
  explicit Pair(int jobs)
      : connections(
            crd, ResolvedTarget{"inprocess://example", {}, ReviewVersion::V1, {}},
            [this](const ResolvedTarget&) {
              return std::make_unique<testing::CountingTarget>(callsInFlight, mostCallsInFlight,
                                                               std::chrono::milliseconds(2));
            },
            jobs),
        executors(crd, connections, static_cast<std::size_t>(jobs) + 1, CaseSettings{}),
        window(executors, {static_cast<std::size_t>(jobs), 1000000, 1000000}) {}

  // Steps making `cases` single-object cases v1 -> v1alpha1, recording what was tallied.
  CaseWindow::Steps steps(int cases) {
    CaseWindow::Steps s;
    s.make = [this, cases](std::size_t inFlight) -> std::optional<PreparedCase> {
      mostCasesInFlight = std::max(mostCasesInFlight, inFlight);
      if (made == cases) return std::nullopt;
      PreparedCase p;
      p.planned.index = made;
      p.planned.from = "v1";
      p.planned.to = "v1alpha1";
      p.planned.seed = static_cast<std::uint64_t>(made);
      p.batch = {testing::exampleWidget("w" + std::to_string(made))};
      p.values = 1;
      ++made;
      return p;
    };
    s.stopped = [] { return false; };
    s.tally = [this](const PlannedCase& planned, CaseResult& result) {
      tallied.push_back(planned.index);
      calls += result.calls();
      return true;
    };
    return s;
  }

  Crd crd = testing::loadExampleCrd("widgets.example.convcheck.dev.yaml");
  std::atomic<int> callsInFlight{0}, mostCallsInFlight{0};
  Connections connections;
  CaseExecutors executors;
  CaseWindow window;
  int made = 0;
  std::size_t mostCasesInFlight = 0;
  std::vector<int> tallied;
  int calls = 0;
};

TEST(CaseWindow, EveryCaseIsTalliedOnceInPlanOrder) {
  Pair pair(3);
  EXPECT_TRUE(pair.window.run(pair.steps(12)));
  std::vector<int> expected(12);
  for (int i = 0; i < 12; ++i) expected[i] = i;
  EXPECT_EQ(pair.tallied, expected);
  EXPECT_GT(pair.calls, 12) << "each case made its calls";
}

TEST(CaseWindow, CasesOverlapButTheirCallsKeepToTheRequestSlots) {
  Pair pair(2);
  ASSERT_TRUE(pair.window.run(pair.steps(16)));
  EXPECT_LE(pair.mostCallsInFlight.load(), 2) << "--jobs requests at once";
  EXPECT_GE(pair.mostCasesInFlight, 2u) << "cases ran side by side";
  EXPECT_LE(pair.mostCasesInFlight, 2 * pair.executors.size());
}

TEST(CaseWindow, OneJobRunsItsCasesBesideAtMostOneOther) {
  Pair pair(1);
  ASSERT_TRUE(pair.window.run(pair.steps(6)));
  EXPECT_EQ(pair.mostCallsInFlight.load(), 1);
  EXPECT_EQ(pair.tallied.size(), 6u);
}

TEST(CaseWindow, ATallyThatSaysStopEndsThePairAtThatCase) {
  Pair pair(2);
  CaseWindow::Steps steps = pair.steps(10);
  steps.tally = [&](const PlannedCase& planned, CaseResult&) {
    pair.tallied.push_back(planned.index);
    return planned.index < 3;
  };
  EXPECT_FALSE(pair.window.run(steps));
  EXPECT_EQ(pair.tallied, (std::vector<int>{0, 1, 2, 3}));
}

TEST(CaseWindow, AStoppedRunStartsNoFurtherCase) {
  Pair pair(2);
  CaseWindow::Steps steps = pair.steps(10);
  steps.stopped = [] { return true; };
  EXPECT_TRUE(pair.window.run(steps));
  EXPECT_TRUE(pair.tallied.empty());
  EXPECT_LE(pair.made, 1) << "the case made waits, never starts";
}

TEST(CaseWindow, ALargeCaseWaitsForTheCasesInFlight) {
  Pair pair(2);
  CaseWindow large(pair.executors, {2, 1000000, 10});
  CaseWindow::Steps steps = pair.steps(6);
  auto make = steps.make;
  steps.make = [&](std::size_t inFlight) {
    auto p = make(inFlight);
    if (p) p->values = 10;  // a case alone fills the window's values
    return p;
  };
  steps.tally = [&](const PlannedCase& planned, CaseResult&) {
    pair.tallied.push_back(planned.index);
    return true;
  };
  ASSERT_TRUE(large.run(steps));
  EXPECT_EQ(pair.tallied.size(), 6u);
  EXPECT_EQ(pair.mostCallsInFlight.load(), 1) << "one case at a time";
}

}  // namespace
}  // namespace convcheck
