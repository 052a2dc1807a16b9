// End to end, real binary against the real example webhook over TLS: every fault's reported
// counterexample is the smallest batch the fault needs with at most two optional fields, its
// bundle replays (fails against the faulty webhook, passes against a correct one), a corpus makes
// the next run find the failure first, and `minimize` shrinks a large hand-written object.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using Scratch = ScratchDir;
using Run = ConvcheckResult;

// Runs the convcheck binary with exactly these arguments (replay and minimize take no --junit).
Run runBinary(std::vector<std::string> args) { return runConvcheckExactly(std::move(args)); }

// Fields of a CronTab or Widget beyond the ones it must have, counted independently of
// convcheck: every member and list item except apiVersion, kind, the metadata every stored
// object has, spec, and the spec fields the example CRDs require.
int optionalFields(const json& object) {
  static const std::set<std::string> meta = {"name", "namespace", "uid", "creationTimestamp",
                                             "generation"};
  static const std::set<std::string> requiredSpec = {"host", "port", "hostPort", "colour", "color"};
  std::function<int(const json&)> all = [&](const json& v) {
    int n = 0;
    if (v.is_structured())
      for (const auto& c : v) n += 1 + all(c);
    return n;
  };
  int n = 0;
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (it.key() == "apiVersion" || it.key() == "kind") continue;
    if (it.key() == "metadata") {
      for (auto m = it->begin(); m != it->end(); ++m)
        if (!meta.count(m.key())) n += 1 + all(m.value());
    } else if (it.key() == "spec") {
      for (auto s = it->begin(); s != it->end(); ++s)
        if (!requiredSpec.count(s.key())) n += 1 + all(s.value());
    } else {
      n += 1 + all(it.value());
    }
  }
  return n;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct FaultCase {
  std::string fault;
  std::string property;
  std::size_t objects;  // the smallest batch the fault needs
  bool widget = false;
  std::vector<std::string> extra = {};
};

std::string nameOf(const FaultCase& c) {
  std::string name = c.fault + (c.widget ? "_widget" : "");
  for (auto& ch : name)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

class ShrunkFault : public ::testing::TestWithParam<FaultCase> {};

TEST_P(ShrunkFault, ReportsTheMinimalCounterexampleAndItsBundleReplays) {
  const FaultCase& c = GetParam();
  ExampleWebhookOptions options;
  options.faults = {c.fault};
  ExampleWebhook hook(options);
  Scratch reports;
  auto crd = c.widget ? ExampleWebhook::widgetCrdPath() : ExampleWebhook::cronTabCrdPath();
  std::vector<std::string> args = {"run",
                                   "--crd",
                                   crd,
                                   "--url",
                                   hook.url(),
                                   "--ca-file",
                                   hook.pki().caFile(),
                                   "--seed",
                                   "1",
                                   "--tests",
                                   "24",
                                   "--report-dir",
                                   reports.path().string()};
  args.insert(args.end(), c.extra.begin(), c.extra.end());
  auto r = runConvcheck(args);
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;

  // Each problem that fails the property is shrunk once, for all its (property, pair)s.
  int checked = 0;
  for (const auto& kind : r.json["kinds"])
    for (const auto& problem : kind["problems"]) {
      bool breaksProperty = false;
      for (const auto& site : problem["sites"]) breaksProperty |= site["property"] == c.property;
      if (!breaksProperty) continue;
      const json& f = problem["example"];
      ASSERT_TRUE(f.contains("shrink")) << f.dump(2);
      const json& s = f["shrink"];
      const json& objects = f["caseObjects"];
      std::cout << "[shrink] " << c.fault << " " << problem["key"].get<std::string>() << " "
                << f["from"].get<std::string>() << "->" << f["to"].get<std::string>() << " ("
                << f["part"].get<std::string>() << "): objects " << s["originalObjects"] << "->"
                << s["shrunkObjects"] << ", fields " << s["originalFields"] << "->"
                << s["shrunkFields"] << ", bytes " << s["originalBytes"] << "->" << s["shrunkBytes"]
                << ", optional " << s["optionalFields"] << ", calls " << s["calls"] << "\n";
      EXPECT_EQ(objects.size(), c.objects) << f.dump(2);
      EXPECT_EQ(s["shrunkObjects"], c.objects);
      EXPECT_TRUE(s["reproduced"].get<bool>());
      EXPECT_FALSE(s["budgetExhausted"].get<bool>());
      for (const auto& o : objects) EXPECT_LE(optionalFields(o), 2) << o.dump(2);
      EXPECT_LE(s["optionalFields"].get<int>(), 2 * static_cast<int>(c.objects));
      ++checked;
    }
  ASSERT_GT(checked, 0) << "no failure of " << c.property << "\n" << r.out;
  // One bundle per problem, for its example.
  std::vector<std::string> bundles;
  for (const auto& kind : r.json["kinds"])
    for (const auto& problem : kind["problems"])
      for (const auto& site : problem["sites"])
        if (site["property"] == c.property && problem.contains("bundle")) {
          bundles.push_back(problem["bundle"]);
          break;
        }
  ASSERT_FALSE(bundles.empty()) << r.json["kinds"][0]["problems"].dump(1);

  // The JUnit failure text shows the shrunk object and how to reproduce it.
  EXPECT_NE(r.junit.find("input (shrunk)"), std::string::npos);
  EXPECT_NE(r.junit.find("replay: convcheck replay "), std::string::npos);
  EXPECT_NE(r.junit.find("curl: curl "), std::string::npos);
  EXPECT_NE(r.junit.find("--cacert"), std::string::npos);

  ExampleWebhook correct;
  for (const auto& bundle : bundles) {
    for (const char* file : {"bundle.json", "../../crd.json", "request-1.json", "response-1.json",
                             "diff.txt", "curl.sh"})
      EXPECT_TRUE(fs::exists(fs::path(bundle) / file)) << bundle << "/" << file;
    EXPECT_FALSE(fs::exists(fs::path(bundle) / "crd.json")) << "one crd.json for the run";
    auto still = runBinary({"replay", bundle});
    EXPECT_EQ(still.status.code, 1) << bundle << "\n" << still.out << still.err;
    EXPECT_NE(still.out.find("still fails"), std::string::npos) << still.out;
    auto fixed =
        runBinary({"replay", bundle, "--url", correct.url(), "--ca-file", correct.pki().caFile()});
    EXPECT_EQ(fixed.status.code, 0) << bundle << "\n" << fixed.out << fixed.err;
    EXPECT_NE(fixed.out.find("passes now"), std::string::npos) << fixed.out;
  }
}

INSTANTIATE_TEST_SUITE_P(
    ExampleWebhook, ShrunkFault,
    ::testing::Values(
        FaultCase{"uid-not-echoed", "uid-echo", 1}, FaultCase{"reverse-objects", "order", 2},
        FaultCase{"drop-field", "round-trip", 1}, FaultCase{"change-name", "metadata-immutable", 1},
        FaultCase{"lossy-round-trip", "round-trip", 1},
        FaultCase{"nondeterministic", "determinism", 1},
        FaultCase{"http500-over-8", "response-envelope", 9},
        FaultCase{"delay-3s", "timeout", 1, false, {"--timeout", "1s", "--shrink-budget", "40"}},
        FaultCase{"wrong-api-version", "target-version", 1},
        FaultCase{"change-kind", "kind-unchanged", 1},
        FaultCase{"drop-last-object", "object-count", 1},
        FaultCase{"invalid-label", "labels-annotations-valid", 1},
        FaultCase{"mutate-finalizers", "metadata-immutable", 1, true},
        FaultCase{"failure-result", "converts-valid-input", 1},
        FaultCase{"stale-stash", "edit-round-trip", 1, true},
        FaultCase{"batch-position", "batch-independence", 2},
        FaultCase{"schema-invalid-output", "schema-valid", 1},
        FaultCase{"unknown-field", "no-pruned-fields", 1},
        FaultCase{"skip-hub", "transitivity", 1, true}),
    [](const auto& info) { return nameOf(info.param); });

TEST(Bundles, RecordWhatShapedTheCaseAndReplayWithIt) {
  ExampleWebhookOptions options;
  options.faults = {"lossy-round-trip"};
  ExampleWebhook hook(options);
  fs::path dir = fs::temp_directory_path() / ("convcheck-shaped-" + std::to_string(::getpid()));
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::widgetCrdPath(), "--url", hook.url(),
                         "--ca-file", hook.pki().caFile(), "--seed", "1", "--tests", "24",
                         "--raw-objects", "--date-times", "any", "--properties", "round-trip",
                         "--report-dir", dir.string()});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  const std::string bundle = r.json["kinds"][0]["problems"][0]["bundle"];
  auto meta = nlohmann::json::parse(slurp(bundle + "/bundle.json"));
  EXPECT_EQ(meta["case"]["rawObjects"], true);
  EXPECT_EQ(meta["case"]["dateTimes"], "any");
  EXPECT_NE(meta["case"]["cause"].get<std::string>().find("round-trip|"), std::string::npos);
  auto replay = runBinary({"replay", bundle});
  EXPECT_EQ(replay.status.code, 1) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("still fails"), std::string::npos) << replay.out;
  EXPECT_EQ(replay.out.find("is gone"), std::string::npos) << replay.out;
  fs::remove_all(dir);
}

TEST(Replay, AnUnreachableWebhookExitsThree) {
  ExampleWebhookOptions options;
  options.faults = {"change-kind"};
  Scratch reports;
  std::string bundle;
  std::string deadUrl;
  {
    ExampleWebhook hook(options);
    auto r = runConvcheck({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(),
                           "--ca-file", hook.pki().caFile(), "--seed", "1", "--tests", "4",
                           "--report-dir", reports.path().string()});
    ASSERT_EQ(r.status.code, 1) << r.out << r.err;
    for (const auto& problem : r.json["kinds"][0]["problems"])
      if (problem.contains("bundle")) bundle = problem["bundle"];
    deadUrl = hook.url();
  }
  ASSERT_FALSE(bundle.empty());
  auto r = runBinary({"replay", bundle, "--url", deadUrl});
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("127.0.0.1"), std::string::npos) << r.err;
}

TEST(Replay, AMissingBundleExitsTwoNamingIt) {
  auto r = runBinary({"replay", "/nonexistent/bundle"});
  EXPECT_EQ(r.status.code, 2);
  EXPECT_NE(r.err.find("/nonexistent/bundle"), std::string::npos) << r.err;
}

TEST(Corpus, ASecondRunFindsTheStoredFailureInItsFirstRequests) {
  ExampleWebhookOptions options;
  options.faults = {"lossy-round-trip"};
  ExampleWebhook hook(options);
  Scratch corpus;
  auto run = [&](const std::string& seed) {
    return runConvcheck({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(),
                         "--ca-file", hook.pki().caFile(), "--seed", seed, "--tests", "24",
                         "--corpus", corpus.path().string(), "--shrink-budget", "0"});
  };
  auto first = run("1");
  ASSERT_EQ(first.status.code, 1) << first.out << first.err;
  EXPECT_NE(first.out.find("corpus: stored"), std::string::npos) << first.out;
  int stored = 0;
  for (const auto& e : fs::recursive_directory_iterator(corpus.path() / "regressions")) {
    if (!e.is_regular_file()) continue;
    ++stored;
    json j = json::parse(slurp(e.path()));
    EXPECT_EQ(j["format"], 1);
    EXPECT_EQ(j["crd"], "crontabs.stable.example.com");
  }
  ASSERT_GT(stored, 0);

  auto second = run("2");
  ASSERT_EQ(second.status.code, 1) << second.out << second.err;
  bool found = false;
  for (const auto& problem : second.json["kinds"][0]["problems"]) {
    const json& f = problem["example"];
    EXPECT_EQ(f["origin"].get<std::string>().rfind("corpus regressions/", 0), 0u) << f["origin"];
    // Each stored case costs at most a handful of requests (forward, back, repeat, edit, ...).
    EXPECT_LE(f["foundAtRequest"].get<int>(), 6 * stored) << f["foundAtRequest"];
    found = true;
  }
  EXPECT_TRUE(found) << second.out;
}

// A CronTab as `kubectl get -o yaml` shows it, with every optional field and server-set metadata.
const char* kBigCronTab = R"(apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: nightly-report-42
  namespace: analytics
  uid: 6f1d2c3b-8a9e-4f70-b1c2-d3e4f5a6b7c8
  resourceVersion: "918273"
  generation: 7
  creationTimestamp: "2024-03-01T12:00:00Z"
  labels:
    app.kubernetes.io/name: reports
    app.kubernetes.io/part-of: analytics
    tier: batch
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"stable.example.com/v1"}'
    owner: data-team
  finalizers:
    - stable.example.com/cleanup
  ownerReferences:
    - apiVersion: v1
      kind: ConfigMap
      name: reports-config
      uid: 0b5a1e64-3c2b-4b41-9a8b-5d7e2a1c9f00
  managedFields:
    - manager: kubectl-client-side-apply
      operation: Update
      apiVersion: stable.example.com/v1
      time: "2024-03-01T12:00:00Z"
      fieldsType: FieldsV1
      fieldsV1:
        f:spec:
          f:image: {}
spec:
  cronSpec: "*/15 * * * *"
  image: registry.example.com/analytics/nightly-report:v2.14.3
  replicas: 12
  host: reports.analytics.svc.cluster.local
  port: "8443"
status:
  active: 2
  lastScheduleTime: "2024-03-02T00:15:00Z"
)";

struct MinimizeCase {
  std::string fault;
  std::string property;
};

class Minimize : public ::testing::TestWithParam<MinimizeCase> {};

TEST_P(Minimize, ShrinksALargeHandWrittenObjectAndWritesAReplayableBundle) {
  const auto& c = GetParam();
  ExampleWebhookOptions options;
  options.faults = {c.fault};
  ExampleWebhook hook(options);
  Scratch dir;
  const auto object = dir.path() / "crontab.yaml";
  std::ofstream(object) << kBigCronTab;
  auto r = runBinary({"minimize", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(),
                      "--ca-file", hook.pki().caFile(), "--to", "v1beta1", "--property", c.property,
                      "--report-dir", (dir.path() / "out").string(), object.string()});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  json shrunk = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(shrunk.is_discarded()) << r.out;
  std::cout << "[minimize] " << c.fault << ": " << r.err;
  EXPECT_LE(optionalFields(shrunk), 2) << shrunk.dump(2);
  EXPECT_FALSE(shrunk.contains("status"));
  EXPECT_FALSE(shrunk["metadata"].contains("managedFields"));
  EXPECT_EQ(shrunk["metadata"]["uid"], "6f1d2c3b-8a9e-4f70-b1c2-d3e4f5a6b7c8");
  EXPECT_NE(r.err.find("shrunk from 1 object(s), 4"), std::string::npos) << r.err;

  const auto bundle = dir.path() / "out" / "bundles" / ("CronTab-v1-v1beta1-" + c.property);
  ASSERT_TRUE(fs::exists(bundle / "bundle.json")) << r.err;
  json b = json::parse(slurp(bundle / "bundle.json"));
  EXPECT_EQ(b["case"]["objects"][0], shrunk);
  auto replay = runBinary({"replay", bundle.string()});
  EXPECT_EQ(replay.status.code, 1) << replay.out << replay.err;
}

INSTANTIATE_TEST_SUITE_P(ExampleWebhook, Minimize,
                         ::testing::Values(MinimizeCase{"lossy-round-trip", "round-trip"},
                                           MinimizeCase{"drop-field", "round-trip"},
                                           MinimizeCase{"failure-result", "converts-valid-input"},
                                           MinimizeCase{"invalid-label",
                                                        "labels-annotations-valid"}),
                         [](const auto& info) {
                           std::string name = info.param.fault;
                           for (auto& ch : name)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(Minimize, AnObjectThatConvertsFineExitsZero) {
  ExampleWebhook hook;
  Scratch dir;
  const auto object = dir.path() / "crontab.yaml";
  std::ofstream(object) << kBigCronTab;
  auto r = runBinary({"minimize", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(),
                      "--ca-file", hook.pki().caFile(), "--to", "v1beta1", object.string()});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("every property holds"), std::string::npos) << r.out;
}

TEST(Minimize, AnObjectOfAnotherKindExitsTwo) {
  ExampleWebhook hook;
  Scratch dir;
  const auto object = dir.path() / "cm.yaml";
  std::ofstream(object) << "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n";
  auto r = runBinary({"minimize", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(),
                      "--ca-file", hook.pki().caFile(), "--to", "v1beta1", object.string()});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("cm.yaml"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace convcheck::test
