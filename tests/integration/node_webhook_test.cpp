// convcheck against a webhook written as many real ones are: Node.js (JSON.parse makes every
// number a float64), stamping an annotation of its own, slow. tests/webhooks/crontab-webhook.js.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

namespace fs = std::filesystem;

bool haveNode() { return std::system("node --version >/dev/null 2>&1") == 0; }

ExampleWebhookOptions nodeWebhook(std::vector<std::string> extra = {}) {
  ExampleWebhookOptions options;
  options.program = {"/usr/bin/env", "node",
                     std::string(CONVCHECK_SOURCE_DIR) + "/tests/webhooks/crontab-webhook.js"};
  options.program.insert(options.program.end(), extra.begin(), extra.end());
  return options;
}

std::vector<std::string> nodeRunArgs(const ExampleWebhook& hook,
                                     std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"run",
                                   "--crd",
                                   ExampleWebhook::cronTabCrdPath(),
                                   "--url",
                                   hook.url(),
                                   "--ca-file",
                                   hook.pki().caFile(),
                                   "--seed",
                                   "1",
                                   "--tests",
                                   "24"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(NodeWebhook, ItsOnlyFindingsAreIntegersItsFloat64ParserRounds) {
  if (!haveNode()) GTEST_SKIP() << "node is not installed (ci/install-deps.sh installs nodejs)";
  ExampleWebhook hook(nodeWebhook());
  auto r = runConvcheck(nodeRunArgs(hook));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  int causes = 0;
  for (const auto& t : r.json["kinds"][0]["results"])
    for (const auto& c : t["causes"]) {
      ++causes;
      const std::string key = c["key"];
      // Rounded integers, or (near 2^63) floats that the integer schema rejects.
      EXPECT_TRUE(key == t["property"].get<std::string>() + "|float64" ||
                  key.rfind("schema-valid|invalid|status.active", 0) == 0)
          << key << "\n"
          << r.out;
    }
  EXPECT_GT(causes, 0);
}

TEST(NodeWebhook, ItsOwnAnnotationIsAcknowledgedAndItsDelayDoesNotMatter) {
  if (!haveNode()) GTEST_SKIP() << "node is not installed (ci/install-deps.sh installs nodejs)";
  ExampleWebhookOptions options =
      nodeWebhook({"--annotate", "crontabs.example.dev/converted-by=node-webhook"});
  options.delayMs = 40;
  ExampleWebhook hook(options);
  fs::path dir = fs::temp_directory_path() / ("convcheck-node-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "ack.yaml")
      << "acknowledge:\n  - annotation: crontabs.example.dev/converted-by\n"
         "    reason: the webhook records who converted\n";
  auto r = runConvcheck(nodeRunArgs(hook, {"--config", (dir / "ack.yaml").string()}));
  fs::remove_all(dir);
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;  // the float64 findings remain
  int acknowledged = 0;
  for (const auto& t : r.json["kinds"][0]["results"]) {
    for (const auto& a : t["acknowledged"]) acknowledged += a["cases"].get<int>();
    for (const auto& c : t["causes"])
      EXPECT_EQ(c["key"].get<std::string>().find("converted-by"), std::string::npos) << r.out;
  }
  EXPECT_GT(acknowledged, 0) << r.out;
  for (const auto& l : r.json["kinds"][0]["latency"]) EXPECT_GE(l["p50Ms"].get<double>(), 40.0);
}

// The problems of the run whose key starts with `prefix`.
std::vector<nlohmann::json> problemsWith(const ConvcheckResult& r, const std::string& prefix) {
  std::vector<nlohmann::json> out;
  for (const auto& p : r.json["kinds"][0]["problems"])
    if (p["key"].get<std::string>().rfind(prefix, 0) == 0) out.push_back(p);
  return out;
}

TEST(NodeWebhook, TwoCrashesAreTwoProblemsEachWithItsOwnMessage) {
  if (!haveNode()) GTEST_SKIP() << "node is not installed (ci/install-deps.sh installs nodejs)";
  ExampleWebhook hook(nodeWebhook({"--modes", "crash-missing-section,crash-missing-nested"}));
  auto r = runConvcheck(nodeRunArgs(hook));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  auto crashes = problemsWith(r, "rejected|");
  ASSERT_EQ(crashes.size(), 2u) << r.json["kinds"][0]["problems"].dump(1);
  const std::string section = "Cannot convert undefined or null to object";
  const std::string nested = "Cannot read properties of undefined";
  int seen = 0;
  for (const auto& p : crashes) {
    const std::string key = p["key"];
    const std::string message = key.find(section) != std::string::npos ? section : nested;
    EXPECT_NE(key.find(message), std::string::npos) << key;
    seen |= message == section ? 1 : 2;
    EXPECT_EQ(p["severity"], "rejected") << key;  // some valid objects convert
    // The title, and the shrunk counterexample, show this problem's own message.
    EXPECT_NE(p["title"].get<std::string>().find(message), std::string::npos) << p["title"];
    const auto& example = p["example"];
    EXPECT_NE(example["apiserverMessage"].get<std::string>().find(message), std::string::npos)
        << example["apiserverMessage"];
    ASSERT_TRUE(example.contains("shrink")) << key;
    // Every property and pair the crash breaks is a site of this one problem.
    EXPECT_GE(p["sites"].size(), 2u) << p["sites"].dump();
  }
  EXPECT_EQ(seen, 3) << "both crashes are reported";
}

TEST(NodeWebhook, LosingEveryEntryOfAMapIsOneProblemWhateverItsKeys) {
  if (!haveNode()) GTEST_SKIP() << "node is not installed (ci/install-deps.sh installs nodejs)";
  ExampleWebhook hook(nodeWebhook({"--modes", "lose-map-entries"}));
  auto args = nodeRunArgs(hook);
  args[2] = std::string(CONVCHECK_SOURCE_DIR) + "/tests/webhooks/crontabs-with-maps.yaml";
  auto r = runConvcheck(args);
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  std::vector<std::string> selectorProblems;
  for (const auto& p : r.json["kinds"][0]["problems"]) {
    const std::string key = p["key"];
    if (key.find("spec.selector") != std::string::npos) selectorProblems.push_back(key);
  }
  ASSERT_EQ(selectorProblems.size(), 1u) << r.json["kinds"][0]["problems"].dump(1);
  EXPECT_EQ(selectorProblems[0], "field|spec.selector.*");
}

}  // namespace
}  // namespace convcheck::test
