// The HTML report: one page that loads nothing (no script, no external resource, a policy that
// forbids them), with the problem digest, each problem's diff, the property × pair matrix, the
// latency plots and the coverage, and every text from the webhook escaped. Chromium opens the
// page of a real run in tests/integration/html_report_test.cpp.
#include "reports/html_report.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kube/go/utf8.h"
#include "tests/reports/sample_report.h"

namespace convcheck {
namespace {

using testing::sampleReport;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t i = text.find(what); i != std::string::npos; i = text.find(what, i + 1)) ++n;
  return n;
}

TEST(HtmlReport, LoadsNothingFromAnywhere) {
  const std::string html = renderHtmlReport(sampleReport());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("content=\"default-src 'none'; style-src 'unsafe-inline'\""),
            std::string::npos);
  EXPECT_NE(html.find("<meta name=\"viewport\" content=\"width=device-width"), std::string::npos);
  for (const char* forbidden : {"<script", "src=", "url(", "@import", "@font-face", "<img",
                                "<iframe", "href=\"http", "<link rel=\"stylesheet"})
    EXPECT_EQ(html.find(forbidden), std::string::npos) << forbidden;
}

TEST(HtmlReport, HasTheDigestTheMatrixAndEachProblemsDiff) {
  const std::string html = renderHtmlReport(sampleReport());
  EXPECT_NE(html.find("convcheck: <span class=\"verdict fail\">2 problems — properties failed"),
            std::string::npos);
  EXPECT_NE(html.find("<a href=\"#kind-1-P2\">P2</a>"), std::string::npos) << html;
  EXPECT_NE(html.find("<section class=\"problem\" id=\"kind-1-P2\">"), std::string::npos);
  EXPECT_NE(html.find("<del>- spec.image: &quot;x&quot;</del>"), std::string::npos) << html;
  EXPECT_NE(html.find("<table class=\"matrix\">"), std::string::npos);
  EXPECT_NE(html.find("<th>v1 →<br>v1beta1</th>"), std::string::npos) << html;
  EXPECT_NE(html.find("<th scope=\"row\">round-trip</th>"), std::string::npos);
  EXPECT_GE(count(html, "<td class=\"fail\""), 2u);
  EXPECT_GE(count(html, "<td class=\"pass\""), 1u);
  EXPECT_NE(html.find("· P2"), std::string::npos);  // a failing cell names its problem
}

TEST(HtmlReport, PlotsLatencyPerPairOnOneScale) {
  RunReport r = sampleReport();
  LatencyStats big = r.kinds[0].latency[0];
  big.batchSizes = "9-32";
  big.p99Ms = 7;
  r.kinds[0].latency.push_back(big);
  big.from = "v1beta1";
  big.to = "v1";
  r.kinds[0].latency.push_back(big);
  const std::string html = renderHtmlReport(r);
  EXPECT_EQ(count(html, "<svg class=\"latency\""), 2u);
  EXPECT_EQ(count(html, "<polyline class=\"p95\""), 2u);
  EXPECT_EQ(count(html, ">10 ms</text>"), 2u) << html;  // 7 ms rounds up to one 10 ms scale
  EXPECT_NE(html.find("<title>9-32 objects: p99 7 ms"), std::string::npos) << html;
  EXPECT_NE(html.find("<figcaption>v1beta1 → v1</figcaption>"), std::string::npos);
}

TEST(HtmlReport, ShowsTheCoverageAndWhatWasNotExercised) {
  RunReport r = sampleReport();
  VersionCoverage v;
  v.version = "v1";
  v.objects = 3;
  v.paths = {{"spec.a<b>", "string", false, 0, 3, {}},
             {"spec.size", "string", false, 3, 0, {{"enum", "\"large\"", 0}}}};
  r.kinds[0].coverage.versions = {v};
  r.kinds[0].coverage.pairs = {{"v1", "v1beta1", 2, 4, 6, 900}};
  const std::string html = renderHtmlReport(r);
  EXPECT_NE(html.find("<h3>Coverage</h3>"), std::string::npos);
  EXPECT_NE(html.find("<h4>Not exercised at v1 (3)</h4>"), std::string::npos) << html;
  EXPECT_NE(html.find("<code>spec.a&lt;b&gt;: never sent</code>"), std::string::npos) << html;
  EXPECT_NE(html.find("<span class=\"chip gap\">enum &quot;large&quot; ×0</span>"),
            std::string::npos);
  EXPECT_NE(html.find("<td>v1 → v1beta1</td><td class=\"num\">2</td>"), std::string::npos);
}

TEST(HtmlReport, EscapesTheWebhooksTextAndKeepsItValidUtf8) {
  const std::string html = renderHtmlReport(sampleReport("<script>alert(1)</script>\xff&"));
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;\xEF\xBF\xBD&amp;"), std::string::npos);
  EXPECT_EQ(firstInvalidUtf8(html), std::string::npos);
}

TEST(HtmlReport, WritesTheFileOrSaysWhyNot) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("convcheck-html-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "report.html";
  ASSERT_EQ(writeHtmlReport(sampleReport(), {}, path.string()), "");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), renderHtmlReport(sampleReport()));
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
  const std::string error =
      writeHtmlReport(sampleReport(), {}, (dir / "no/such/dir.html").string());
  EXPECT_NE(error.find("cannot write HTML report"), std::string::npos) << error;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace convcheck
