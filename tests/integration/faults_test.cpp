// End to end: the real convcheck binary against the real example webhook over TLS. The correct
// webhook passes; every injected fault makes convcheck exit 1 naming the expected property.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include <csignal>
#include <pugixml.hpp>
#include <sstream>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

std::vector<std::string> runArgs(const ExampleWebhook& hook, const std::string& crd,
                                 std::vector<std::string> extra = {},
                                 const std::string& tests = "24") {
  std::vector<std::string> args = {
      "run",    "--crd", crd,       "--url", hook.url(), "--ca-file", hook.pki().caFile(),
      "--seed", "1",     "--tests", tests};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(Faults, CorrectWebhookPassesEveryPropertyForBothExampleCrds) {
  ExampleWebhook hook;
  for (const auto& crd : {ExampleWebhook::cronTabCrdPath(), ExampleWebhook::widgetCrdPath()}) {
    auto r = runConvcheck(runArgs(hook, crd));
    EXPECT_EQ(r.status.code, 0) << crd << "\n" << r.out << r.err;
    EXPECT_EQ(r.failedProperties(), std::vector<std::string>{}) << crd;
    EXPECT_NE(r.junit.find("round-trip"), std::string::npos);
    EXPECT_NE(r.junit.find("determinism"), std::string::npos);
  }
}

struct FaultCase {
  std::string fault;
  std::string property;
  bool widget = false;
  std::vector<std::string> extra = {};
  // Properties that necessarily fail as well: a conversion that loses data also loses an edit and
  // a two-hop path (edit-round-trip, transitivity); a random value differs between any two calls
  // (determinism, batch-independence, edit-round-trip, transitivity).
  std::vector<std::string> alsoFails = {};
};

const std::vector<std::string> kLossy = {"edit-round-trip", "transitivity"};
const std::vector<std::string> kRandom = {"batch-independence", "edit-round-trip", "transitivity"};

class FaultIsCaught : public ::testing::TestWithParam<FaultCase> {};

TEST_P(FaultIsCaught, ConvcheckExitsOneAndNamesTheProperty) {
  const auto& c = GetParam();
  ExampleWebhookOptions options;
  options.faults = {c.fault};
  ExampleWebhook hook(options);
  auto crd = c.widget ? ExampleWebhook::widgetCrdPath() : ExampleWebhook::cronTabCrdPath();
  // Detection is the subject here, not the example: no shrinking (ShrunkFault covers it), and
  // every fault is caught within 12 cases per pair.
  auto extra = c.extra;
  extra.insert(extra.end(), {"--shrink-budget", "0"});
  auto r = runConvcheck(runArgs(hook, crd, extra, "12"));
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  auto failed = r.failedProperties();
  EXPECT_NE(std::find(failed.begin(), failed.end(), c.property), failed.end())
      << "fault " << c.fault << " should fail " << c.property << "\n"
      << r.out;
  for (const auto& p : failed)
    EXPECT_TRUE(p == c.property ||
                std::find(c.alsoFails.begin(), c.alsoFails.end(), p) != c.alsoFails.end())
        << "fault " << c.fault << " also fails " << p << "\n"
        << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    ExampleWebhook, FaultIsCaught,
    ::testing::Values(
        FaultCase{"uid-not-echoed", "uid-echo"}, FaultCase{"reverse-objects", "order"},
        FaultCase{"drop-field", "round-trip", false, {}, kLossy},
        FaultCase{"drop-field", "round-trip", true, {}, kLossy},
        FaultCase{"change-name", "metadata-immutable"},
        FaultCase{"lossy-round-trip", "round-trip", true, {}, kLossy},
        FaultCase{"nondeterministic", "determinism", false, {}, kRandom},
        FaultCase{"http500-over-8", "response-envelope"},
        FaultCase{"delay-3s", "timeout", false, {"--timeout", "1s"}},
        FaultCase{"wrong-api-version", "target-version"},
        FaultCase{"change-kind", "kind-unchanged"}, FaultCase{"drop-last-object", "object-count"},
        FaultCase{"invalid-label", "labels-annotations-valid"},
        FaultCase{"mutate-finalizers", "metadata-immutable", true},
        FaultCase{"failure-result", "converts-valid-input"},
        FaultCase{"stale-stash", "edit-round-trip", true},
        FaultCase{"batch-position", "batch-independence"},
        FaultCase{"batch-position", "batch-independence", true},
        FaultCase{"schema-invalid-output", "schema-valid"},
        FaultCase{"unknown-field", "no-pruned-fields"},
        FaultCase{"unknown-field", "no-pruned-fields", true},
        FaultCase{"skip-hub", "transitivity", true},
        FaultCase{"legacy-version-loss", "round-trip", true, {}, kLossy},
        FaultCase{"needs-default", "converts-valid-input", true, {"--raw-objects"}},
        FaultCase{"owned-annotation-loss", "round-trip", false, {}, kLossy},
        FaultCase{"owned-annotation-loss", "round-trip", true, {}, kLossy},
        FaultCase{"float64-numbers", "round-trip", false, {}, {"edit-round-trip", "schema-valid"}}),
    [](const auto& info) {
      std::string name = info.param.fault + (info.param.widget ? "_widget" : "");
      for (auto& ch : name)
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

TEST(Problems, AFieldLostOverThreeVersionsIsOneProblemWithASiteUnderEachPropertyItBreaks) {
  ExampleWebhookOptions options;
  options.faults = {"drop-field"};  // Widget: spec.replicas lost going to v1alpha1
  ExampleWebhook hook(options);
  auto r = runConvcheck(runArgs(hook, ExampleWebhook::widgetCrdPath()));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  std::vector<nlohmann::json> replicas;
  for (const auto& p : r.json["kinds"][0]["problems"])
    if (p["key"].get<std::string>().find("spec.replicas") != std::string::npos)
      replicas.push_back(p);
  ASSERT_EQ(replicas.size(), 1u) << r.json["kinds"][0]["problems"].dump(1);
  const auto& p = replicas[0];
  EXPECT_EQ(p["key"], "field|spec.replicas");
  EXPECT_EQ(p["severity"], "data loss");
  std::set<std::string> properties;
  std::set<std::pair<std::string, std::string>> pairs;
  int cases = 0;
  for (const auto& s : p["sites"]) {
    properties.insert(s["property"].get<std::string>());
    pairs.insert({s["from"].get<std::string>(), s["to"].get<std::string>()});
    cases += s["cases"].get<int>();
  }
  EXPECT_EQ(properties, (std::set<std::string>{"edit-round-trip", "round-trip", "transitivity"}));
  EXPECT_GE(pairs.size(), 3u);
  EXPECT_EQ(p["cases"], cases);
  // Shrunk once, for the whole problem.
  EXPECT_TRUE(p["example"].contains("shrink"));
}

TEST(Runs, SameSeedGivesTheSameFindings) {
  ExampleWebhookOptions options;
  options.faults = {"lossy-round-trip"};
  ExampleWebhook hook(options);
  auto a = runConvcheck(runArgs(hook, ExampleWebhook::widgetCrdPath()));
  auto b = runConvcheck(runArgs(hook, ExampleWebhook::widgetCrdPath()));
  ASSERT_EQ(a.status.code, 1);
  // Verdicts and counterexamples, without timings and per-run paths.
  auto digest = [](const nlohmann::json& j) {
    nlohmann::json d = nlohmann::json::array();
    for (const auto& k : j["kinds"]) {
      for (const auto& r : k["results"])
        d.push_back({r["property"], r["from"], r["to"], r["passed"], r["failed"], r["causes"]});
      for (const auto& p : k["problems"]) {
        const auto& f = p["example"];
        d.push_back({p["id"], p["key"], f["batch"], f["expected"], f["got"]});
      }
    }
    return d;
  };
  EXPECT_TRUE(digest(a.json) == digest(b.json)) << "two runs with seed 1 differ";
  EXPECT_EQ(a.json["kinds"][0]["requests"], b.json["kinds"][0]["requests"]);
}

TEST(Runs, ConcurrentJobsGiveTheSameVerdictsAsOne) {
  ExampleWebhookOptions options;
  options.faults = {"lossy-round-trip"};
  ExampleWebhook hook(options);
  auto one = runConvcheck(runArgs(hook, ExampleWebhook::widgetCrdPath()));
  auto four = runConvcheck(runArgs(hook, ExampleWebhook::widgetCrdPath(), {"--jobs", "4"}));
  ASSERT_EQ(one.status.code, 1);
  ASSERT_EQ(four.status.code, 1);
  auto counts = [](const nlohmann::json& j) {
    nlohmann::json d = nlohmann::json::array();
    for (const auto& r : j["kinds"][0]["results"])
      d.push_back({r["property"], r["from"], r["to"], r["passed"], r["failed"], r["notEvaluable"]});
    return d;
  };
  EXPECT_TRUE(counts(one.json) == counts(four.json));
  EXPECT_EQ(one.json["kinds"][0]["requests"], four.json["kinds"][0]["requests"]);
}

TEST(Runs, DurationBoundsTheRunAndStillTestsEveryPair) {
  ExampleWebhook hook;
  auto started = std::chrono::steady_clock::now();
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(),
                         "--ca-file", hook.pki().caFile(), "--duration", "2s"});
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_LT(seconds, 30);
  std::set<std::string> pairs;
  for (const auto& res : r.json["kinds"][0]["results"])
    if (res["property"] == "round-trip" && res["passed"].get<int>() > 0)
      pairs.insert(res["from"].get<std::string>() + ">" + res["to"].get<std::string>());
  EXPECT_EQ(pairs.size(), 2u);
}

// --duration is a budget for the whole command: testing leaves shrinking its share once a problem
// is found, and shrinks still waiting at the end keep their unshrunk example, so the run with its
// reports ends within the budget plus a tenth (webhook calls in flight at the end included).
TEST(Runs, DurationIsABudgetForTheWholeRunShrinkingAndReportsIncluded) {
  ExampleWebhook hook(
      {.faults = {"drop-field", "mutate-finalizers", "reverse-objects", "lossy-round-trip"},
       .delayMs = 30});
  ScratchDir dir("duration-budget");
  const auto started = std::chrono::steady_clock::now();
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(),
                         "--ca-file", hook.pki().caFile(), "--duration", "15s", "--jobs", "8",
                         "--seed", "1", "--report-dir", (dir.path() / "out").string()});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_LE(seconds, 16.5) << r.out;
  EXPECT_GE(seconds, 10.0) << r.out;  // testing used its share
  EXPECT_GE(r.json["kinds"][0]["problems"].size(), 3u) << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "out" / "summary.md"));
}

// SIGINT (Ctrl-C) and SIGTERM (a CI job cancelled, a pod stopped) end a run the same way.
class Interrupted : public ::testing::TestWithParam<int> {};

TEST_P(Interrupted, WritesPartialReportsMarkedInterruptedAndExits130) {
  const int signal = GetParam();
  ExampleWebhook hook;
  auto dir = std::filesystem::temp_directory_path() /
             ("convcheck-int-" + std::to_string(::getpid()) + "-" + std::to_string(signal));
  std::filesystem::create_directories(dir);
  ChildProcess run(
      {convcheckBinary(), "run", "--crd", ExampleWebhook::widgetCrdPath(), "--url", hook.url(),
       "--ca-file", hook.pki().caFile(), "--tests", "1000000", "--report-dir", dir.string()},
      {{"NO_COLOR=1"}, ""});
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  run.signal(signal);
  auto status = run.wait(std::chrono::seconds(30));
  ASSERT_TRUE(status) << "convcheck did not stop after signal " << signal;
  EXPECT_EQ(status->code, 130) << run.stderrText();
  std::ifstream junitFile(dir / "junit.xml");
  std::stringstream junit;
  junit << junitFile.rdbuf();
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(junit.str().c_str())) << junit.str();
  EXPECT_TRUE(doc.select_node("//error[@type='interrupted']"));
  EXPECT_TRUE(doc.select_node("//testcase[@name='v1alpha1 -> v1beta1: round-trip']"));
  std::ifstream jsonFile(dir / "results.json");
  auto results = nlohmann::json::parse(jsonFile);
  EXPECT_EQ(results["interrupted"], true);
  EXPECT_GT(results["kinds"][0]["requests"].get<int>(), 0);
  std::filesystem::remove_all(dir);
}

// An interrupted run's examples that were never shrunk say so, never that no smaller case failed.
TEST(Runs, AnInterruptedRunDoesNotClaimShrinkingFoundNothing) {
  ExampleWebhookOptions options;
  options.faults = {"drop-field"};
  ExampleWebhook hook(options);
  ChildProcess run({convcheckBinary(), "run", "--crd", ExampleWebhook::widgetCrdPath(), "--url",
                    hook.url(), "--ca-file", hook.pki().caFile(), "--tests", "1000000", "-v"},
                   {{"NO_COLOR=1"}, ""});
  // Signalled once testing started (--verbose names each pair as it starts), not after a fixed
  // time that a loaded machine may spend starting the process.
  ASSERT_TRUE(run.waitForLine(std::regex(": v[0-9a-z]+ -> v[0-9a-z]+"), std::chrono::seconds(60),
                              Stream::Stderr))
      << run.stderrText();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  run.signal(SIGINT);
  auto status = run.wait(std::chrono::seconds(60));
  ASSERT_TRUE(status) << "convcheck did not stop";
  EXPECT_EQ(status->code, 130) << run.stderrText();
  const std::string out = run.stdoutText();
  EXPECT_NE(out.find("interrupted with"), std::string::npos) << out;
  EXPECT_EQ(out.find("no smaller case failed the same way"), std::string::npos) << out;
}

INSTANTIATE_TEST_SUITE_P(Runs, Interrupted, ::testing::Values(SIGINT, SIGTERM),
                         [](const auto& info) {
                           return info.param == SIGINT ? "SIGINT" : "SIGTERM";
                         });

TEST(Runs, UnreachableWebhookExitsThreeWithAMessageNamingTheUrl) {
  std::string url;
  {
    ExampleWebhook hook;  // learn a free port, then stop the server
    url = hook.url();
  }
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", url,
                         "--insecure-skip-tls-verify"});
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("127.0.0.1"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.junit.find("<error"), std::string::npos);
  // Nothing was tested, and nothing says otherwise; the hint names every way to reach a service.
  EXPECT_EQ(r.out.find("no problems"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  nothing was tested: "), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("--port-forward or --service-proxy"), std::string::npos) << r.err;
}

TEST(Runs, UnknownCaExitsThreeAndSaysWhatToCheck) {
  ExampleWebhook hook;
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url()});
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("ca"), std::string::npos) << r.out << r.err;
}

TEST(Runs, CrdFromStdinWithCaBundleAndUrlFromTheCrd) {
  ExampleWebhook hook;
  std::ifstream f(hook.writeCrdPointingHere(ExampleWebhook::cronTabCrdPath()));
  std::stringstream text;
  text << f.rdbuf();
  auto r = runConvcheck({"run", "--crd", "-", "--seed", "3", "--tests", "8"}, text.str());
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.junit.find("CronTab"), std::string::npos);
}

TEST(Runs, BrokenCrdExitsTwoNamingFileAndField) {
  auto dir =
      std::filesystem::temp_directory_path() / ("convcheck-broken-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto crd = dir / "broken.yaml";
  std::ofstream(crd)
      << "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
         "metadata: {name: things.example.com}\n"
         "spec:\n  group: example.com\n  names: {plural: things}\n  scope: Namespaced\n"
         "  versions: []\n";
  auto r = runConvcheck({"run", "--crd", crd.string(), "--url", "https://127.0.0.1:1/convert"});
  EXPECT_EQ(r.status.code, 2);
  EXPECT_NE(r.err.find("broken.yaml"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("spec."), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

TEST(Runs, BadFlagsExitTwo) {
  auto r = runConvcheck({"run", "--crd", "x.yaml", "--timeout", "soon"});
  EXPECT_EQ(r.status.code, 2);
  EXPECT_NE(r.err.find("--timeout"), std::string::npos);
}

}  // namespace
}  // namespace convcheck::test
