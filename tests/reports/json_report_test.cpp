// results.json: a format version, the seed as a decimal string, every problem with its sites and
// example, and per (property, pair) the ids of the problems it shows.
#include "reports/json_report.h"

#include <gtest/gtest.h>

#include "tests/reports/sample_report.h"

namespace convcheck {
namespace {

using testing::sampleReport;

TEST(JsonReport, HasAFormatAndTheSeedAsText) {
  auto j = reportToJson(sampleReport());
  EXPECT_EQ(j["format"], kResultsFormat);
  EXPECT_EQ(j["seed"], "18446744073709551557");
  EXPECT_EQ(j["startedAt"], "2026-11-26T12:00:00Z");
  EXPECT_EQ(j["kinds"][0]["seconds"], 12.0);
  EXPECT_EQ(j["kinds"][0]["versionRoles"]["v0"], "not served, not stored: findings only warn");
}

TEST(JsonReport, ListsEveryProblemWithItsSitesAndExample) {
  auto problems = reportToJson(sampleReport())["kinds"][0]["problems"];
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0]["id"], "P1");
  EXPECT_EQ(problems[0]["severity"], "outage");
  EXPECT_EQ(problems[1]["key"], "lost|spec.image");
  EXPECT_EQ(problems[1]["cases"], 6);
  ASSERT_EQ(problems[1]["sites"].size(), 3u);
  EXPECT_EQ(problems[1]["sites"][2]["from"], "v0");
  EXPECT_EQ(problems[1]["sites"][2]["warningOnly"], true);
  EXPECT_EQ(problems[1]["example"]["property"], "round-trip");
  EXPECT_EQ(problems[1]["example"]["shrink"]["shrunkObjects"], 1);
  EXPECT_EQ(problems[0]["example"]["exchanges"][0]["response"]["status"], 500);
}

TEST(JsonReport, EachResultNamesTheProblemsItShows) {
  auto results = reportToJson(sampleReport())["kinds"][0]["results"];
  EXPECT_EQ(results[0]["verdict"], "pass");
  EXPECT_TRUE(results[0]["problems"].empty());
  EXPECT_EQ(results[1]["verdict"], "fail");
  EXPECT_EQ(results[1]["problems"], nlohmann::json::array({"P2"}));
  EXPECT_EQ(results[3]["problems"], nlohmann::json::array({"P1"}));
  EXPECT_EQ(results[4]["verdict"], "warning");
  EXPECT_EQ(results[5]["verdict"], "not-evaluable");
  EXPECT_EQ(results[1]["findings"][0]["cause"]["key"], "round-trip|lost|spec.image");
  EXPECT_FALSE(results[1].contains("moreCauses"));  // every cause is a problem
}

TEST(JsonReport, AReportWithoutProblemsGroupsItsTalliesCauses) {
  RunReport r = sampleReport();
  r.kinds[0].problems.clear();
  auto problems = reportToJson(r)["kinds"][0]["problems"];
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0]["key"], "lost|spec.image");  // data loss ranks before an outage
  EXPECT_EQ(problems[0]["sites"].size(), 3u);
  EXPECT_EQ(problems[1]["key"], "rejected|http-status");
}

TEST(JsonReport, InvalidBytesInAResponseBodyAreReplaced) {
  auto j = reportToJson(sampleReport("\xFF"));
  const std::string body =
      j["kinds"][0]["problems"][0]["example"]["exchanges"][0]["response"]["body"];
  EXPECT_EQ(body, "boom \xEF\xBF\xBD");
}

}  // namespace
}  // namespace convcheck
