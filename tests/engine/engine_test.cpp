// The engine's one API (engine/engine.h): options in, events out, a verdict, for each mode. A run
// against the example webhook's conversion as an in-process target (the conversion function
// target kind, no socket) and against the real example webhook over HTTPS; replay and minimize
// of what a run found; the in-process target kind chosen by its URL scheme.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/engine.h"
#include "engine/run/target_kinds.h"
#include "examples/webhook/review_handler.h"
#include "reports/bundle_writer.h"
#include "tests/support/example_webhook.h"

namespace convcheck {
namespace {

using example::Fault;
using example::FaultSet;
using nlohmann::json;
namespace fs = std::filesystem;

const std::string kWidget =
    std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/widgets.example.convcheck.dev.yaml";

// The example webhook's handler as a conversion function (the in-process target kind).
ReviewFunction exampleFunction(FaultSet faults) {
  return [faults](const json& review) {
    return json::parse(
        example::handleConversionReview("application/json", review.dump(), faults).body);
  };
}

// Every event of a job, in order (the engine tells them one at a time per kind).
struct Recorded {
  std::mutex mutex;
  std::vector<EngineEvent> events;
  EventSink sink() {
    return [this](const EngineEvent& e) {
      std::lock_guard<std::mutex> lock(mutex);
      events.push_back(e);
    };
  }
  template <class T>
  std::vector<T> all() {
    std::vector<T> out;
    for (const auto& e : events)
      if (const T* t = std::get_if<T>(&e)) out.push_back(*t);
    return out;
  }
};

EngineOptions runOptions(const std::string& crd, int tests = 10) {
  EngineOptions o;
  o.config.crdInput = crd;
  o.config.seed = 7;
  o.config.testsPerPair = tests;
  o.config.testsGiven = true;
  o.config.jobs = 2;
  o.config.maxBatchSize = 16;
  o.version = "test";
  return o;
}

EngineOptions inProcessRun(FaultSet faults, int tests = 10) {
  EngineOptions o = runOptions(kWidget, tests);
  o.config.url = "inprocess://example";
  o.access.function = exampleFunction(faults);
  return o;
}

// A scratch directory for one test.
struct Scratch {
  fs::path path =
      fs::temp_directory_path() / ("convcheck-engine-" + std::to_string(::getpid()) + "-" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  Scratch() { fs::create_directories(path); }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

TEST(EngineRun, AgainstTheInProcessTargetEveryCaseIsToldAndACorrectWebhookPasses) {
  Recorded recorded;
  const Verdict verdict = execute(inProcessRun({}), recorded.sink());
  EXPECT_EQ(verdict.exitCode, 0) << verdict.report.fatalError;
  ASSERT_TRUE(verdict.reported);
  ASSERT_EQ(verdict.report.kinds.size(), 1u);
  EXPECT_EQ(verdict.report.kinds[0].url, "inprocess://example");
  EXPECT_EQ(verdict.report.version, "test");
  const auto cases = recorded.all<CaseDone>();
  // Three versions: six ordered pairs of ten cases each.
  EXPECT_EQ(cases.size(), 60u);
  for (const auto& c : cases) EXPECT_EQ(c.kind, "Widget");
  EXPECT_TRUE(std::is_sorted(cases.begin(), cases.end(), [](const CaseDone& a, const CaseDone& b) {
    return a.requests < b.requests;
  }));
  EXPECT_EQ(cases.back().requests, verdict.report.kinds[0].requests);
  EXPECT_TRUE(recorded.all<ProblemFound>().empty());
  EXPECT_TRUE(recorded.all<ShrinkDone>().empty());
  // One detail note per version pair, as --verbose shows them.
  std::vector<std::string> details;
  for (const auto& n : recorded.all<Note>())
    if (n.level == Note::Level::Detail) details.push_back(n.text);
  EXPECT_EQ(details.size(), 6u) << ::testing::PrintToString(details);
  EXPECT_EQ(verdict.report.reach.how, WebhookReach::How::InProcess);
}

TEST(EngineRun, AFaultIsFoundOnceShrunkAndReportedAsAProblem) {
  Recorded recorded;
  const Verdict verdict = execute(inProcessRun({Fault::LossyRoundTrip}), recorded.sink());
  EXPECT_EQ(verdict.exitCode, 1) << verdict.report.fatalError;
  const auto found = recorded.all<ProblemFound>();
  ASSERT_FALSE(found.empty());
  std::set<std::string> identities;
  for (const auto& p : found) EXPECT_TRUE(identities.insert(p.problem).second) << p.problem;
  const auto shrinks = recorded.all<ShrinkDone>();
  ASSERT_FALSE(shrinks.empty());
  EXPECT_EQ(shrinks.back().done, shrinks.back().total);
  // Every problem of the report was told first as found; the shrinks come after every case.
  ASSERT_FALSE(verdict.report.kinds[0].problems.empty());
  EXPECT_GT(std::count_if(verdict.report.kinds[0].problems.begin(),
                          verdict.report.kinds[0].problems.end(),
                          [&](const Problem& p) { return p.example.shrink.has_value(); }),
            0);
  std::size_t lastCase = 0, firstShrink = recorded.events.size();
  for (std::size_t i = 0; i < recorded.events.size(); ++i) {
    if (std::holds_alternative<CaseDone>(recorded.events[i])) lastCase = i;
    if (std::holds_alternative<ShrinkDone>(recorded.events[i]))
      firstShrink = std::min(firstShrink, i);
  }
  EXPECT_LT(lastCase, firstShrink);
}

TEST(EngineRun, AgainstTheRealExampleWebhookOverHttpsTheSameVerdictComes) {
  test::ExampleWebhookOptions options;
  options.faults = {"uid-not-echoed"};
  test::ExampleWebhook hook(options);
  EngineOptions o = runOptions(kWidget, 4);
  o.config.url = hook.url();
  o.config.transport.tls.caFile = hook.pki().caFile();
  Recorded recorded;
  const Verdict verdict = execute(o, recorded.sink());
  EXPECT_EQ(verdict.exitCode, 1) << verdict.report.fatalError;
  ASSERT_EQ(verdict.report.kinds.size(), 1u);
  EXPECT_EQ(verdict.report.kinds[0].url, hook.url());
  bool uidEcho = false;
  for (const auto& p : recorded.all<ProblemFound>()) uidEcho |= p.property == "uid-echo";
  EXPECT_TRUE(uidEcho);
  // Cases the webhook rejects alike count once (at most twice --tests per pair).
  EXPECT_GE(recorded.all<CaseDone>().size(), 24u);
  EXPECT_LE(recorded.all<CaseDone>().size(), 48u);
  EXPECT_EQ(verdict.report.reach.how, WebhookReach::How::Url);
  EXPECT_EQ(verdict.url, hook.url());
}

TEST(EngineRun, AnUnloadableCrdIsAReportedInputError) {
  EngineOptions o = inProcessRun({});
  o.config.crdInput = "/nonexistent/crd.yaml";
  const Verdict verdict = execute(o);
  EXPECT_EQ(verdict.exitCode, 2);
  EXPECT_TRUE(verdict.reported);
  EXPECT_NE(verdict.report.fatalError.find("/nonexistent/crd.yaml"), std::string::npos);
}

TEST(InProcessTargetKind, IsChosenByItsSchemeAndIsNotReachedOverTheNetwork) {
  EXPECT_FALSE(isNetworkTarget("inprocess://example"));
  EXPECT_TRUE(isNetworkTarget("https://127.0.0.1:8443/convert"));
  EXPECT_TRUE(isNetworkTarget(""));  // the CRD's clientConfig.url
  // Only the engine's API makes one: the command line is told so.
  EXPECT_NE(checkTargetUrl("inprocess://example").find("not the command line"), std::string::npos);
  EXPECT_EQ(checkTargetUrl("https://127.0.0.1:8443/convert"), "");
  EXPECT_NE(checkTargetUrl("ftp://example/convert").find("scheme"), std::string::npos);
}

TEST(InProcessTargetKind, WaitsForNothingAndJudgesNoTls) {
  EngineOptions o = inProcessRun({}, 2);
  o.access.wait = std::chrono::seconds(30);  // would fail at once if it tried to connect
  const auto started = std::chrono::steady_clock::now();
  const Verdict verdict = execute(o);
  EXPECT_EQ(verdict.exitCode, 0) << verdict.report.fatalError;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(25));
  for (const auto& t : verdict.report.kinds[0].tallies) {
    if (t.property == "tls") {
      EXPECT_EQ(t.failed, 0);
    }
  }
}

TEST(InProcessTargetKind, WithoutAFunctionTheWebhookIsUnreachable) {
  EngineOptions o = inProcessRun({});
  o.access.function = nullptr;
  const Verdict verdict = execute(o);
  std::string failing;
  for (const auto& k : verdict.report.kinds)
    for (const auto& t : k.tallies)
      if (t.failed > 0)
        failing += t.property + " " + t.from + "->" + t.to + ": " +
                   (t.findings.empty() ? "" : t.findings.front().summary) + "\n";
  EXPECT_EQ(verdict.exitCode, 3) << failing;
  EXPECT_NE(verdict.report.fatalError.find("no conversion function"), std::string::npos)
      << verdict.report.fatalError;
}

// A run's bundles, written as `run --report-dir` writes them.
std::vector<fs::path> bundlesOf(Verdict& verdict, const fs::path& dir) {
  EXPECT_TRUE(writeBundles(verdict.report, verdict.transport, true, dir.string()).errors.empty());
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir / "bundles")) out.push_back(e.path());
  return out;
}

TEST(EngineReplay, ABundleOfARunIsReplayedThroughTheSameApi) {
  Scratch scratch;
  Verdict found = execute(inProcessRun({Fault::LossyRoundTrip}));
  ASSERT_EQ(found.exitCode, 1);
  const auto bundles = bundlesOf(found, scratch.path);
  ASSERT_FALSE(bundles.empty());
  EngineOptions replay;
  replay.mode = ReplayMode{bundles.front().string(), {}};
  replay.access.function = exampleFunction({Fault::LossyRoundTrip});
  const Verdict still = execute(replay);
  EXPECT_EQ(still.exitCode, 1) << ::testing::PrintToString(still.errors);
  ASSERT_TRUE(still.replay);
  EXPECT_EQ(still.replay->url, "inprocess://example");
  ASSERT_TRUE(still.replay->result);
  EXPECT_EQ(still.replay->result->outcome, Outcome::Fail);
  // Against the correct conversion it passes now.
  replay.access.function = exampleFunction({});
  EXPECT_EQ(execute(replay).exitCode, 0);
}

TEST(EngineMinimize, AFailingObjectIsShrunkAndHeldOnesPass) {
  Scratch scratch;
  const fs::path object = scratch.path / "widget.json";
  std::ofstream(object) << R"({"apiVersion": "example.convcheck.dev/v1", "kind": "Widget",
    "metadata": {"name": "w"}, "spec": {"colour": "red", "replicas": 900, "tags": ["a", "b"]}})";
  EngineOptions o;
  o.mode = MinimizeMode{object.string(), "", "v1beta1", ""};
  o.config.crdInput = kWidget;
  o.config.url = "inprocess://example";
  o.config.seed = 1;
  o.config.shrinkBudget = 100;
  o.access.function = exampleFunction({Fault::LossyRoundTrip});
  Recorded recorded;
  const Verdict verdict = execute(o, recorded.sink());
  ASSERT_TRUE(verdict.minimize) << ::testing::PrintToString(verdict.errors);
  EXPECT_EQ(verdict.exitCode, 1);
  ASSERT_TRUE(verdict.minimize->target);
  EXPECT_FALSE(verdict.minimize->finding.caseObjects.empty());
  EXPECT_EQ(recorded.all<ShrinkDone>().size(), 1u);
  o.access.function = exampleFunction({});
  const Verdict holds = execute(o);
  EXPECT_EQ(holds.exitCode, 0);
  ASSERT_TRUE(holds.minimize);
  EXPECT_FALSE(holds.minimize->target);
}

}  // namespace
}  // namespace convcheck
