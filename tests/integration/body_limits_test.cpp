// Webhooks that cap request bodies, as web frameworks do by default, over real HTTPS: the LIST
// chunk of a default run is refused, and the finding says from which size on (objects and bytes)
// the refusal starts and which size still passed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <string>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

constexpr std::size_t kCap = 200'000;

// A size as reports print it ("73 B", "199.8 kB", "1.20 MB") in bytes.
double bytesOf(const std::string& number, const std::string& unit) {
  const double n = std::stod(number);
  return unit == "MB" ? n * 1e6 : unit == "kB" ? n * 1e3 : n;
}

// Checks the bisection's sentence in the problems' examples of `r` (the sizes on either side of
// `cap`) and returns how many said it.
int checkLimitSaid(const ConvcheckResult& r, const std::string& refusal, std::size_t cap = kCap) {
  const std::regex sentence("refused \\(" + refusal +
                            "\\) from (\\d+) objects \\(([\\d.]+) (B|kB|MB)\\) on; (\\d+) "
                            "objects? \\(([\\d.]+) (B|kB|MB)\\) passed");
  int said = 0;
  for (const auto& p : r.json["kinds"][0]["problems"])
    for (const auto& f : {p["example"]})
      for (const auto& d : f["details"]) {
        std::smatch m;
        const std::string text = d.get<std::string>();
        if (!std::regex_search(text, m, sentence)) continue;
        ++said;
        EXPECT_EQ(std::stoul(m[1]), std::stoul(m[4]) + 1) << text;
        EXPECT_GT(bytesOf(m[2], m[3]), static_cast<double>(cap)) << text;
        EXPECT_LE(bytesOf(m[5], m[6]), static_cast<double>(cap)) << text;
      }
  return said;
}

std::vector<std::string> runArgs(const ExampleWebhook& hook) {
  return {"run",
          "--crd",
          ExampleWebhook::cronTabCrdPath(),
          "--url",
          hook.url(),
          "--ca-file",
          hook.pki().caFile(),
          "--seed",
          "1",
          "--tests",
          "24",
          "--shrink-budget",
          "20"};
}

TEST(BodyLimits, A413ForLargeBodiesIsReportedWithTheSizeAtWhichItStarts) {
  ExampleWebhookOptions options;
  options.program = {ExampleWebhook::binaryPath(), "--max-body-bytes", std::to_string(kCap)};
  ExampleWebhook hook(options);
  auto r = runConvcheck(runArgs(hook));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_EQ(r.failedProperties(), std::vector<std::string>{"response-envelope"}) << r.out;
  EXPECT_GT(checkLimitSaid(r, "HTTP 413"), 0) << r.out;
}

// A default run (no --tests) sends each pair one LIST chunk of 500 objects as a LIST returns them
// (managedFields mirroring the fields, last-applied-configuration, labels, annotations): about
// twice the bytes of 500 objects with sparse metadata. A cap above every other request of the run
// (mixed batches of at most 32 objects) and below that chunk is found, and reported between the
// largest request that passed and the smallest refused.
TEST(BodyLimits, ADefaultRunFindsACapThatOnlyAListChunkOfStoredObjectsReaches) {
  constexpr std::size_t kListCap = 600'000;
  ExampleWebhookOptions options;
  options.program = {ExampleWebhook::binaryPath(), "--max-body-bytes", std::to_string(kListCap)};
  ExampleWebhook hook(options);
  auto r = runConvcheck({"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--url", hook.url(),
                         "--ca-file", hook.pki().caFile(), "--seed", "1", "--shrink-budget", "20"});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_EQ(r.failedProperties(), std::vector<std::string>{"response-envelope"}) << r.out;
  EXPECT_GT(checkLimitSaid(r, "HTTP 413", kListCap), 0) << r.out;
}

TEST(BodyLimits, AConnectionResetOnLargeBodiesIsReportedWithTheSizeAtWhichItStarts) {
  if (std::system("node --version >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "node is not installed (ci/install-deps.sh installs nodejs)";
  ExampleWebhookOptions options;
  options.program = {"/usr/bin/env",
                     "node",
                     std::string(CONVCHECK_SOURCE_DIR) + "/tests/webhooks/crontab-webhook.js",
                     "--max-body-bytes",
                     std::to_string(kCap),
                     "--on-large-body",
                     "reset"};
  ExampleWebhook hook(options);
  auto r = runConvcheck(runArgs(hook));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_GT(checkLimitSaid(r, "the connection closed"), 0) << r.out;
}

}  // namespace
}  // namespace convcheck::test
