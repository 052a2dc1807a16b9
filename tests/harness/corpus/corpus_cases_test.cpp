// The cases a corpus adds to a run: regressions first, then samples to every other version, then
// their variants; entries that cannot run are skipped with a note saying why.
#include <gtest/gtest.h>

#include "harness/corpus/corpus_cases.h"
#include "tests/harness/corpus/corpus_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;

CorpusContents contents() {
  CorpusContents c;
  RegressionCase r;
  r.crd = "crontabs.stable.example.com";
  r.property = "order";
  r.caseTo = "v1beta1";
  r.seed = 9;
  r.objects = {json::parse(R"({"apiVersion":"stable.example.com/v1","kind":"CronTab"})")};
  c.regressions.push_back({"regressions/x/order.json", r});
  c.samples.push_back({"samples/a.yaml, document 1", "v1",
                       json::parse(R"({"apiVersion":"stable.example.com/v1","kind":"CronTab",
                         "metadata":{"name":"a"},"spec":{"host":"h","port":"80",
                         "image":"nginx"}})")});
  return c;
}

TEST(CorpusCases, RegressionsComeFirstThenSamplesThenVariants) {
  const auto& kind = testing::cronTabKind();
  auto plan = planCorpusCases(contents(), kind.crd(), kind.versions(), kind.generators(),
                              kind.checkers(), 1, 2);
  ASSERT_GE(plan.cases.size(), 3u);
  EXPECT_EQ(plan.cases[0].origin, "corpus regressions/x/order.json");
  EXPECT_EQ(plan.cases[0].seed, 9u);
  EXPECT_EQ(plan.cases[0].to, "v1beta1");
  EXPECT_EQ(plan.cases[1].origin, "sample samples/a.yaml, document 1");
  EXPECT_EQ(plan.cases[1].to, "v1beta1");
  EXPECT_EQ(plan.cases[1].objects[0]["metadata"]["namespace"], "default");
  for (std::size_t i = 2; i < plan.cases.size(); ++i)
    EXPECT_NE(plan.cases[i].origin.find("(variant"), std::string::npos);
  EXPECT_TRUE(plan.notes.empty());
}

TEST(CorpusCases, AnInvalidSampleIsSkippedWithTheViolation) {
  const auto& kind = testing::cronTabKind();
  CorpusContents c = contents();
  c.samples[0].object["spec"].erase("host");
  auto plan =
      planCorpusCases(c, kind.crd(), kind.versions(), kind.generators(), kind.checkers(), 1, 2);
  EXPECT_EQ(plan.cases.size(), 1u);
  ASSERT_EQ(plan.notes.size(), 1u);
  EXPECT_NE(plan.notes[0].find("samples/a.yaml"), std::string::npos);
  EXPECT_NE(plan.notes[0].find("host"), std::string::npos);
}

TEST(CorpusCases, ARegressionForAVersionNotTestedIsSkipped) {
  const auto& kind = testing::cronTabKind();
  CorpusContents c = contents();
  c.regressions[0].regression.caseTo = "v2";
  auto plan =
      planCorpusCases(c, kind.crd(), kind.versions(), kind.generators(), kind.checkers(), 1, 0);
  ASSERT_EQ(plan.cases.size(), 1u) << "only the sample";
  ASSERT_EQ(plan.notes.size(), 1u);
  EXPECT_NE(plan.notes[0].find("version v2 is not tested"), std::string::npos);
}

}  // namespace
}  // namespace convcheck
