// The HTML report of a real run (both example CRDs, the example webhook over HTTPS with two
// faults) opened in headless Chromium at a phone's and a desktop's window size, through the
// DevTools protocol (html_in_chromium.mjs, run by Node.js): no console message, no exception, no
// refused load and no network request; the matrix, the latency plots, each problem with its diff
// and the coverage are there; nothing is wider than the phone's window. The screenshots are kept in
// build/artifacts/html-report/ (the CI job's artifacts). The checker itself is shown a page that
// breaks each rule. Skipped where Chromium is not installed, unless CONVCHECK_REQUIRE_CHROMIUM is
// set (ci/test.sh sets it: ci/install-deps.sh installs chromium).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/integration/convcheck_binary.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string fileText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Chromium, and Node.js to drive it (both in ci/install-deps.sh's test group).
bool haveChromium() {
  return !std::string(CHROMIUM_BIN).empty() && fs::exists(CHROMIUM_BIN) && fs::exists(NODE_BIN);
}

#define SKIP_WITHOUT_CHROMIUM()                                                                    \
  do {                                                                                             \
    if (!haveChromium()) {                                                                         \
      if (std::getenv("CONVCHECK_REQUIRE_CHROMIUM"))                                               \
        FAIL() << "chromium or node is not installed";                                             \
      GTEST_SKIP() << "chromium or node is not installed (ci/install-deps.sh test installs them)"; \
    }                                                                                              \
  } while (false)

// What html_in_chromium.mjs saw of `page`; screenshots go to `outDir`.
json openInChromium(const fs::path& page, const fs::path& outDir) {
  fs::create_directories(outDir);
  ChildProcess node({NODE_BIN,
                     std::string(CONVCHECK_SOURCE_DIR) + "/tests/integration/html_in_chromium.mjs",
                     CHROMIUM_BIN, page.string(), outDir.string()});
  auto status = node.wait(std::chrono::seconds(180));
  if (!status) status = node.stop();
  EXPECT_TRUE(status->success()) << status->describe() << "\n" << node.stderrText();
  json seen = json::parse(node.stdoutText(), nullptr, false);
  EXPECT_FALSE(seen.is_discarded()) << node.stdoutText() << "\n" << node.stderrText();
  return seen.is_discarded() ? json::object() : seen;
}

// Both example CRDs in one YAML stream (convcheck reads it from stdin).
std::string bothExampleCrds() {
  return fileText(ExampleWebhook::cronTabCrdPath()) + "\n---\n" +
         fileText(ExampleWebhook::widgetCrdPath());
}

TEST(HtmlInChromium, TheExampleRunWithTwoFaultsReadsInChromiumOnAPhoneAndADesktop) {
  SKIP_WITHOUT_CHROMIUM();
  ExampleWebhook hook({.faults = {"drop-field", "reverse-objects"}});
  ScratchDir dir("convcheck-html");
  const fs::path reports = dir.path() / "reports";
  auto r = runConvcheck({"run", "--crd", "-", "--url", hook.url(), "--ca-file", hook.pki().caFile(),
                         "--seed", "1", "--tests", "40", "--report-dir", reports.string()},
                        bothExampleCrds());
  ASSERT_EQ(r.status.code, 1) << r.err;
  const fs::path page = reports / "report.html";
  ASSERT_TRUE(fs::exists(page)) << r.err;

  // The page is the CI job's artifact, with its screenshots.
  const fs::path artifacts = fs::path(ARTIFACTS_DIR) / "html-report";
  fs::create_directories(artifacts);
  fs::copy_file(page, artifacts / "report.html", fs::copy_options::overwrite_existing);
  const json seen = openInChromium(artifacts / "report.html", artifacts);

  EXPECT_EQ(seen["console"], json::array()) << seen.dump(2);
  EXPECT_EQ(seen["exceptions"], json::array()) << seen.dump(2);
  EXPECT_EQ(seen["log"], json::array()) << seen.dump(2);
  EXPECT_EQ(seen["requests"], json::array()) << seen.dump(2);
  for (const char* window : {"phone", "desktop"}) {
    SCOPED_TRACE(window);
    const json& w = seen["windows"][window];
    ASSERT_TRUE(w.is_object()) << seen.dump(2);
    EXPECT_EQ(w["innerWidth"], w["width"]);  // the page asks for the device's width
    EXPECT_LE(w["scrollWidth"].get<int>(), w["innerWidth"].get<int>());  // no sideways scrolling
    EXPECT_GE(w["smallestFontPx"].get<double>(), 9.0);
    EXPECT_EQ(w["matrices"], 2);  // one per kind
    EXPECT_GT(w["matrixCells"].get<int>(), 10);
    EXPECT_GE(w["plots"].get<int>(), 2 + 6);  // every pair of CronTab (2) and Widget (6)
    EXPECT_GE(w["problems"].get<int>(), 2);   // each fault is a problem
    EXPECT_GE(w["diffs"].get<int>(), 1);
    EXPECT_EQ(w["coverage"], 2);
    const std::string png = fileText(w["screenshot"].get<std::string>());
    EXPECT_GT(png.size(), 10000u);
    EXPECT_EQ(png.substr(1, 3), "PNG");
  }
}

TEST(HtmlInChromium, TheCheckerSeesScriptsErrorsAndRequests) {
  SKIP_WITHOUT_CHROMIUM();
  ScratchDir dir("convcheck-html-checker");
  const fs::path page = dir.path() / "bad.html";
  std::ofstream(page) << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>"
                         "<p style=\"width:3000px\">wide</p><img src=\"http://127.0.0.1:9/x.png\">"
                         "<script>console.error('boom'); notDefined();</script></body></html>";
  const json seen = openInChromium(page, dir.path());
  ASSERT_TRUE(seen.contains("console")) << seen.dump(2);
  EXPECT_NE(seen["console"].dump().find("boom"), std::string::npos) << seen.dump(2);
  EXPECT_NE(seen["exceptions"].dump().find("notDefined"), std::string::npos) << seen.dump(2);
  EXPECT_NE(seen["requests"].dump().find("http://127.0.0.1:9/x.png"), std::string::npos);
  EXPECT_GT(seen["windows"]["desktop"]["scrollWidth"].get<int>(), 1366);
  EXPECT_EQ(seen["windows"]["desktop"]["matrices"], 0);
}

}  // namespace
}  // namespace convcheck::test
