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
    for (const auto& f : t["findings"]) {
      ++causes;
      const std::string key = f["cause"]["key"];
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
    for (const auto& f : t["findings"])
      EXPECT_EQ(f["cause"]["key"].get<std::string>().find("converted-by"), std::string::npos)
          << r.out;
  }
  EXPECT_GT(acknowledged, 0) << r.out;
  for (const auto& l : r.json["kinds"][0]["latency"]) EXPECT_GE(l["p50Ms"].get<double>(), 40.0);
}

}  // namespace
}  // namespace convcheck::test
