// Coverage in the reports: the counts and what was not exercised (run_coverage), results.json's
// `coverage`, and the Markdown summary's coverage tables and gap list, on coverage built by hand.
#include <gtest/gtest.h>

#include "reports/coverage_json.h"
#include "reports/coverage_markdown.h"
#include "reports/json_report.h"
#include "reports/markdown_report.h"
#include "tests/reports/sample_report.h"

namespace convcheck {
namespace {

KindCoverage handMade() {
  VersionCoverage v;
  v.version = "v1";
  v.objects = 40;
  v.paths = {
      {"spec", "object", false, 40, 0, {}},
      {"spec.size",
       "string",
       false,
       40,
       0,
       {{"enum", "\"small\"", 30},
        {"enum", "\"large\"", 0},
        {"default", "\"small\"", 30},
        {"non-default", "\"small\"", 10}}},
      {"spec.name", "string", true, 40, 0, {{"maxLength", "63", 0}}},
      {"spec.note", "string", false, 12, 28, {{"null", "", 2}}},
      {"spec.extra", "object", false, 0, 40, {}},
      {"spec.extra.a", "string", false, 0, 0, {}},
  };
  KindCoverage c;
  c.versions = {v};
  c.pairs = {{"v1", "v2", 10, 30, 120, 48000}};
  return c;
}

TEST(Coverage, CountsPathsOptionalPathsAndBoundaries) {
  const CoverageCounts c = coverageCounts(handMade().versions[0]);
  EXPECT_EQ(c.paths, 6);
  EXPECT_EQ(c.presentPaths, 4);
  // spec, spec.note, spec.extra, spec.extra.a (spec.size has a default, spec.name is required)
  EXPECT_EQ(c.optionalPaths, 4);
  EXPECT_EQ(c.absentPaths, 2);
  EXPECT_EQ(c.boundaries, 6);
  EXPECT_EQ(c.reachedBoundaries, 4);
}

TEST(Coverage, ListsWhatWasNotExercisedOnceForAPathNeverSent) {
  EXPECT_EQ(unexercised(handMade().versions[0]),
            (std::vector<std::string>{
                "spec: never absent (optional)", "spec.size = \"large\": enum value never sent",
                "spec.name: maxLength 63 never reached", "spec.extra: never sent"}));
}

TEST(Coverage, ResultsJsonCarriesEveryPathItsCountsAndTheGaps) {
  RunReport r = testing::sampleReport();
  r.kinds[0].coverage = handMade();
  const nlohmann::json j = reportToJson(r)["kinds"][0]["coverage"];
  ASSERT_EQ(j["versions"].size(), 1u);
  const auto& v = j["versions"][0];
  EXPECT_EQ(v["version"], "v1");
  EXPECT_EQ(v["objects"], 40);
  EXPECT_EQ(v["paths"], 6);
  EXPECT_EQ(v["presentPaths"], 4);
  EXPECT_EQ(v["reachedBoundaries"], 4);
  EXPECT_EQ(v["fields"][1]["path"], "spec.size");
  EXPECT_EQ(v["fields"][1]["boundaries"][1],
            (nlohmann::json{{"kind", "enum"}, {"value", "\"large\""}, {"hits", 0}}));
  EXPECT_EQ(v["unexercised"].size(), 4u);
  EXPECT_EQ(j["pairs"][0], (nlohmann::json{{"from", "v1"},
                                           {"to", "v2"},
                                           {"cases", 10},
                                           {"requests", 30},
                                           {"objects", 120},
                                           {"bytes", 48000}}));
  // A kind without coverage (a run that never got to send) has no `coverage`.
  EXPECT_FALSE(reportToJson(testing::sampleReport())["kinds"][0].contains("coverage"));
}

TEST(Coverage, TheSummaryHasTheTablesAndTheGapsUpToALimit) {
  RunReport r = testing::sampleReport();
  r.kinds[0].coverage = handMade();
  const std::string md = renderMarkdownSummary(r, {}, "");
  EXPECT_NE(md.find("#### Coverage"), std::string::npos) << md;
  EXPECT_NE(md.find("| v1 | 40 | 4 / 6 | 2 / 4 | 4 / 6 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| v1 → v2 | 10 | 30 | 120 | 46.9 KiB |"), std::string::npos) << md;
  EXPECT_NE(md.find("**Not exercised at v1** (4):"), std::string::npos) << md;
  EXPECT_NE(md.find("- `spec.extra: never sent`"), std::string::npos) << md;
  const std::string two = coverageMarkdown(handMade(), 2);
  EXPECT_EQ(two.find("spec.name: maxLength"), std::string::npos) << two;
  EXPECT_NE(two.find("- … and 2 more (results.json lists them all)"), std::string::npos) << two;
  EXPECT_EQ(renderMarkdownSummary(testing::sampleReport(), {}, "").find("Coverage"),
            std::string::npos);
}

}  // namespace
}  // namespace convcheck
