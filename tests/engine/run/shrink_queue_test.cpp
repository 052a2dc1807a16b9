// The shrink queue: a tallied failure's new problems are shrunk against the webhook (here the
// example webhook with a fault, converting in this process) once testing is done, with as many
// calls as testing made, and their shrunk examples replace the case's in the tally; a stopped run
// makes no shrink calls.
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <variant>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/run/shrink_queue.h"
#include "tests/engine/run/example_crd.h"
#include "tests/engine/run/in_process_target.h"

namespace convcheck {
namespace {

using nlohmann::json;

json widget() {
  return {{"apiVersion", "example.convcheck.dev/v1"},
          {"kind", "Widget"},
          {"metadata",
           {{"name", "w"},
            {"namespace", "default"},
            {"uid", "u-1"},
            {"labels", {{"team", "a"}, {"tier", "b"}}}}},
          {"spec", {{"colour", "red"}, {"replicas", 3}}}};
}

// A run of the widget kind against the example webhook losing spec.replicas (drop-field).
struct DropFieldRun {
  DropFieldRun()
      : kind(std::get<KindContext>(
            KindContext::compile(testing::loadExampleCrd("widgets.example.convcheck.dev.yaml")))),
        connections(
            kind.crd(), ResolvedTarget{"inprocess://example", {}, ReviewVersion::V1, {}},
            [](const ResolvedTarget&) {
              return std::make_unique<testing::ExampleTarget>(
                  example::FaultSet{example::Fault::DropField});
            },
            2),
        calls(5, connections, {}),
        tally({}, {}),
        shrinks({kind, connections, calls, tally, std::chrono::seconds(30), 2, 100, nullptr}) {}

  // Runs the case and tallies it as the runner does.
  void runCase() {
    auto converter = connections.open();
    CaseSettings settings = kind.caseSettings();
    settings.onCall = [this](const Exchange& ex) { calls.record(ex); };
    CaseExecutor executor(kind.crd(), *converter, settings);
    CaseResult result = executor.run({widget()}, "v1", "v1alpha1", 1);
    PlannedCase planned;
    planned.from = "v1";
    planned.to = "v1alpha1";
    planned.seed = 1;
    tally.addCase(result, planned.from, planned.to);
    shrinks.add(planned, result, "sample widget.yaml");
  }

  const Finding* roundTripExample() {
    shrinks.drain();
    tally.fill(report);
    for (const auto& t : report.tallies)
      if (t.property == "round-trip" && t.from == "v1" && t.to == "v1alpha1" && !t.findings.empty())
        return &t.findings.front();
    return nullptr;
  }

  KindContext kind;
  Connections connections;
  CallLedger calls;
  SharedTally tally;
  ShrinkQueue shrinks;
  KindReport report;
};

TEST(ShrinkQueue, TheFirstFailureOfANewCauseBecomesItsShrunkExample) {
  DropFieldRun run;
  // Shrinks share as many calls as testing made: enough cases for this one to shrink.
  for (int i = 0; i < 20; ++i) run.runCase();
  const int caseCalls = run.calls.requests();
  const Finding* example = run.roundTripExample();
  ASSERT_NE(example, nullptr);
  ASSERT_TRUE(example->shrink.has_value());
  EXPECT_TRUE(example->shrink->reproduced);
  EXPECT_LT(example->shrink->shrunkFields, example->shrink->originalFields);
  EXPECT_GT(run.calls.requests(), caseCalls) << "shrink calls are counted with the run's";
  EXPECT_EQ(example->origin, "sample widget.yaml");
}

TEST(ShrinkQueue, ShrinksWaitTillTestingIsDone) {
  DropFieldRun run;
  for (int i = 0; i < 20; ++i) run.runCase();
  const int caseCalls = run.calls.requests();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(run.calls.requests(), caseCalls) << "no shrink call before drain()";
  ASSERT_NE(run.roundTripExample(), nullptr);
  EXPECT_GT(run.calls.requests(), caseCalls);
}

TEST(ShrinkQueue, AStoppedRunMakesNoShrinkCalls) {
  DropFieldRun run;
  run.runCase();
  const int caseCalls = run.calls.requests();
  run.calls.interrupt();
  run.roundTripExample();
  EXPECT_EQ(run.calls.requests(), caseCalls);
}

TEST(ShrinkQueue, ShrinksNotStartedByTheTimeBudgetAreLeftOutAndTheNoteNamesThatBudget) {
  DropFieldRun run;
  for (int i = 0; i < 20; ++i) run.runCase();
  const int caseCalls = run.calls.requests();
  run.shrinks.setDeadline(std::chrono::steady_clock::now() - std::chrono::seconds(1),
                          "a quarter of --duration 4s after testing");
  const std::string note = run.shrinks.drain();
  EXPECT_EQ(run.calls.requests(), caseCalls);
  EXPECT_NE(note.find("time budget (a quarter of --duration 4s after testing)"), std::string::npos)
      << note;
  EXPECT_NE(note.find("keep their unshrunk example"), std::string::npos) << note;
}

}  // namespace
}  // namespace convcheck
