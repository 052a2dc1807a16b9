// The Markdown summary: a table of the problems with links (relative paths) to their bundles,
// the properties by verdict, and the seed and reproduction command once.
#include "reports/markdown_report.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kube/go/utf8.h"
#include "tests/reports/sample_report.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;
using testing::sampleReport;

TEST(MarkdownSummary, ATableRowPerProblemWithALinkToItsBundle) {
  const RunReport r = sampleReport();
  WrittenBundles bundles;
  bundles.add(r.kinds[0], r.kinds[0].problems[1],
              {"/reports/run/bundles/CronTab-P2-v1-v1beta1-round-trip", ""});
  const std::string md = renderMarkdownSummary(r, bundles, "/reports/run");
  EXPECT_NE(md.find("## convcheck: 2 problems, properties failed"), std::string::npos) << md;
  EXPECT_NE(md.find("| id | severity | problem | breaks | cases | bundle |"), std::string::npos);
  EXPECT_NE(md.find("| P2 | data loss | spec.image is lost (was \"x\") | round-trip v1->v1beta1 "
                    "v1beta1->v1 v0->v1 | 6 | [CronTab-P2-v1-v1beta1-round-trip]"
                    "(bundles/CronTab-P2-v1-v1beta1-round-trip) |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| P1 | outage |"), std::string::npos) << md;
  EXPECT_NE(md.find("**Failed:** `converts-valid-input`, `round-trip`"), std::string::npos) << md;
  EXPECT_NE(md.find("Reproduce: `convcheck run --crd crontab.yaml --seed 18446744073709551557`"),
            std::string::npos)
      << md;
}

TEST(MarkdownSummary, AJobSummaryNamesBundlesWithoutLinksAndSaysWhereTheyAre) {
  const RunReport r = sampleReport();
  WrittenBundles bundles;
  bundles.add(r.kinds[0], r.kinds[0].problems[1],
              {"/w/out/bundles/CronTab-P2-v1-v1beta1-round-trip", ""});
  const std::string md = renderMarkdownSummary(r, bundles, "/w", BundleCells::Paths);
  EXPECT_NE(md.find("| 6 | `out/bundles/CronTab-P2-v1-v1beta1-round-trip` |"), std::string::npos)
      << md;
  EXPECT_EQ(md.find("]("), std::string::npos) << md;  // no link GitHub would leave dead
  EXPECT_NE(md.find("keep that directory as the job's artifact"), std::string::npos) << md;
  EXPECT_NE(md.find("`convcheck replay BUNDLE`"), std::string::npos) << md;
}

TEST(MarkdownSummary, CellsCannotBreakTheTable) {
  const std::string md = renderMarkdownSummary(sampleReport("a|b\nc<d> \xFF"), {}, "");
  EXPECT_NE(md.find("a\\|b c&lt;d> \xEF\xBF\xBD"), std::string::npos) << md;
  EXPECT_EQ(firstInvalidUtf8(md), std::string::npos);
}

TEST(MarkdownSummary, AStepSummaryIsAppendedToAndAFileReplaced) {
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("markdown-summary-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path step = dir / "step.md";
  std::ofstream(step) << "earlier step\n";
  ::setenv("GITHUB_STEP_SUMMARY", step.c_str(), 1);
  EXPECT_EQ(githubStepSummary(), step.string());
  ASSERT_EQ(writeMarkdownSummary(sampleReport(), {}, step.string()), "");
  ASSERT_EQ(writeMarkdownSummary(sampleReport(), {}, (dir / "summary.md").string()), "");
  ASSERT_EQ(writeMarkdownSummary(sampleReport(), {}, (dir / "summary.md").string()), "");
  ::unsetenv("GITHUB_STEP_SUMMARY");
  auto slurp = [](const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  const std::string stepText = slurp(step);
  EXPECT_EQ(stepText.rfind("earlier step\n## convcheck: 2 problems", 0), 0u) << stepText;
  EXPECT_EQ(stepText.find("]("), std::string::npos) << stepText;
  const std::string file = slurp(dir / "summary.md");
  EXPECT_EQ(file.rfind("## convcheck", 0), 0u);
  EXPECT_EQ(file.find("## convcheck", 1), std::string::npos);  // replaced, not appended
  fs::remove_all(dir);
}

TEST(MarkdownSummary, AKindWithoutAJudgedCaseSaysNothingWasTestedNotNoProblems) {
  RunReport r = sampleReport();
  r.exitCode = 3;
  r.kinds[0].problems.clear();
  for (auto& t : r.kinds[0].tallies) {
    t.blocked += t.passed + t.failed;
    t.passed = t.failed = 0;
  }
  const std::string md = renderMarkdownSummary(r, {}, "");
  EXPECT_NE(md.find("Nothing was tested"), std::string::npos) << md;
  EXPECT_EQ(md.find("No problems found"), std::string::npos) << md;
}

}  // namespace
}  // namespace convcheck
