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

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/run/batch_size_limit.h"
#include "engine/run/case_window.h"
#include "tests/engine/run/example_crd.h"
#include "tests/engine/run/in_process_target.h"

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

// The example webhook, slowed down by a few milliseconds per call, whose calls of two or more
// objects time out; it logs each call's number of objects in the order they arrive.
class TimesOutOnBatches : public testing::ExampleTarget {
 public:
  TimesOutOnBatches(std::mutex& mutex, std::vector<std::size_t>& sizes)
      : ExampleTarget({}), mutex_(mutex), sizes_(sizes) {}
  HttpResult post(const std::string& body) override {
    const std::size_t objects = json::parse(body)["request"]["objects"].size();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      sizes_.push_back(objects);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    if (objects < 2) return ExampleTarget::post(body);
    HttpResult r;
    r.url = "inprocess://example";
    r.transportErrorKind = TransportErrorKind::Timeout;
    r.transportError = "timeout: the in-process target failed this call";
    return r;
  }

 private:
  std::mutex& mutex_;
  std::vector<std::size_t>& sizes_;
};

// Every case is made at 8 objects before any call times out; with one request slot, a case's
// forward call is cut to the pair's cap as it is sent, so no call after a timed-out batch is as
// large (whichever case sends first), and the case is tallied as the objects it sent.
TEST(CaseWindow, ACaseMadeBeforeABatchTimedOutIsCutAsItIsSent) {
  Crd crd = testing::loadExampleCrd("widgets.example.convcheck.dev.yaml");
  std::mutex mutex;
  std::vector<std::size_t> sizes;
  Connections connections(
      crd, ResolvedTarget{"inprocess://example", {}, ReviewVersion::V1, {}},
      [&](const ResolvedTarget&) { return std::make_unique<TimesOutOnBatches>(mutex, sizes); }, 1);
  BatchSizeLimit limit;
  CaseExecutors executors(crd, connections, 2, CaseSettings{}, &limit);
  CaseWindow window(executors, {1, 1000000, 1000000});
  int made = 0;
  std::vector<std::size_t> tallied;
  CaseWindow::Steps steps;
  steps.make = [&](std::size_t) -> std::optional<PreparedCase> {
    if (made == 6) return std::nullopt;
    PreparedCase p;
    p.planned.index = made;
    p.planned.from = "v1";
    p.planned.to = "v1alpha1";
    p.planned.seed = static_cast<std::uint64_t>(made);
    for (int j = 0; j < 8; ++j) {
      p.batch.push_back(testing::exampleWidget(fmt::format("w{}-{}", made, j)));
      p.planned.sourceVersions.push_back("v1");
    }
    p.values = 8;
    ++made;
    return p;
  };
  steps.stopped = [] { return false; };
  steps.tally = [&](const PlannedCase& planned, CaseResult& result) {
    EXPECT_EQ(planned.sourceVersions.size(), result.forwardCall->sent.objects.size());
    tallied.push_back(planned.sourceVersions.size());
    return true;
  };
  ASSERT_TRUE(window.run(steps));
  // The cases reach the request slot in any order; each one halves the cap of those after it.
  std::sort(tallied.rbegin(), tallied.rend());
  EXPECT_EQ(tallied, (std::vector<std::size_t>{8, 4, 2, 1, 1, 1}));
  std::lock_guard<std::mutex> lock(mutex);
  std::size_t smallestTimedOut = SIZE_MAX;
  for (std::size_t objects : sizes) {
    EXPECT_LT(objects, smallestTimedOut) << "a call as large as a batch that timed out";
    if (objects >= 2) smallestTimedOut = objects;
  }
  EXPECT_EQ(sizes.front(), 8u);
}

}  // namespace
}  // namespace convcheck
