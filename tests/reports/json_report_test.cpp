// results.json: a format version, the seed as a decimal string, every problem with its sites and
// example (whole up to a size budget), and per (property, pair) the ids of the problems it shows
// and its causes counted: bounded by problems, not by cases.
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
  // Causes are counted; their examples are the problems', never repeated per result.
  EXPECT_EQ(results[1]["causes"][0]["key"], "round-trip|lost|spec.image");
  EXPECT_EQ(results[1]["causes"][0]["cases"], 5);
  EXPECT_FALSE(results[1].contains("findings"));
  EXPECT_FALSE(results[1].contains("moreCauses"));  // every cause is a problem
}

TEST(JsonReport, AReportWithoutProblemsListsNoneAndRecomputesNothing) {
  RunReport r = sampleReport();
  r.kinds[0].problems.clear();
  auto kind = reportToJson(r)["kinds"][0];
  EXPECT_TRUE(kind["problems"].empty());
  EXPECT_EQ(kind["results"][1]["verdict"], "fail");
}

TEST(JsonReport, ExamplesAreWholeUpToABudgetAndBodiesAreCut) {
  RunReport r = sampleReport();
  KindReport& k = r.kinds[0];
  // 300 problems whose example each carries 100 kB of request body, as a webhook with many
  // defects and unshrunk examples gives.
  const nlohmann::json big = {{"apiVersion", "stable.example.com/v1"},
                              {"kind", "CronTab"},
                              {"spec", {{"image", std::string(100000, 'i')}}}};
  Problem many = k.problems[1];
  many.example.caseObjects = SharedObjects::own({big});
  many.example.batch = SharedObjects::own({big});
  many.example.exchanges = {testing::sampleExchange({big}, "stable.example.com/v1beta1", "{}")};
  k.problems.clear();
  for (int i = 0; i < 300; ++i) {
    many.id = "P" + std::to_string(i + 1);
    k.problems.push_back(many);
  }
  const std::string text = reportToJson(r).dump(2);
  EXPECT_LT(text.size(), std::size_t{8} << 20);
  auto problems = nlohmann::json::parse(text)["kinds"][0]["problems"];
  ASSERT_EQ(problems.size(), 300u);
  EXPECT_EQ(problems[0]["example"]["whole"], true);
  const auto& body = problems[0]["example"]["exchanges"][0]["request"];
  EXPECT_LE(body["body"].get<std::string>().size(), std::size_t{64} << 10);
  EXPECT_GT(body["bodyBytes"].get<std::size_t>(), std::size_t{100000});
  // The last ones still say what their example is.
  const auto& last = problems[299]["example"];
  EXPECT_EQ(last["whole"], false);
  EXPECT_EQ(last["property"], "round-trip");
  EXPECT_EQ(last["batchObjects"], 1);
  EXPECT_FALSE(last.contains("exchanges"));
}

TEST(JsonReport, AProblemNamesItsBundleAndCurlLine) {
  const RunReport r = sampleReport();
  WrittenBundles bundles;
  bundles.add(r.kinds[0], r.kinds[0].problems[1], {"out/bundles/CronTab-P2", "curl x"});
  auto problems = reportToJson(r, bundles)["kinds"][0]["problems"];
  EXPECT_FALSE(problems[0].contains("bundle"));
  EXPECT_EQ(problems[1]["bundle"], "out/bundles/CronTab-P2");
  EXPECT_EQ(problems[1]["example"]["curl"], "curl x");
}

TEST(JsonReport, InvalidBytesInAResponseBodyAreReplaced) {
  auto j = reportToJson(sampleReport("\xFF"));
  const std::string body =
      j["kinds"][0]["problems"][0]["example"]["exchanges"][0]["response"]["body"];
  EXPECT_EQ(body, "boom \xEF\xBF\xBD");
}

}  // namespace
}  // namespace convcheck
