// Which problems a report lists and where: the run's problems, or the tallies' causes grouped
// when the run filled none; the sites as short text; a problem's first testcase.
#include "reports/problem_list.h"

#include <gtest/gtest.h>

#include "tests/reports/sample_report.h"

namespace convcheck {
namespace {

using testing::sampleReport;

TEST(ProblemList, TheRunsProblemsAreListedAsTheyAre) {
  const RunReport r = sampleReport();
  const auto problems = problemsOf(r.kinds[0]);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].id, "P1");
  EXPECT_EQ(problems[1].title, "spec.image is lost (was \"x\")");
}

TEST(ProblemList, WithoutProblemsEachCauseBecomesOneAcrossItsProperties) {
  RunReport r = sampleReport();
  r.kinds[0].problems.clear();
  r.kinds[0].tallies[3].findings[0].cause->key = "round-trip|lost|spec.image";  // same defect
  r.kinds[0].tallies[3].findings[0].cause->severity = Severity::DataLoss;
  const auto problems = problemsOf(r.kinds[0]);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].key, "lost|spec.image");
  EXPECT_EQ(problems[0].sites.size(), 4u);
  EXPECT_FALSE(problems[0].warningOnly);
}

TEST(ProblemList, AProblemOnlyOnWarningSitesOnlyWarnsAndComesLast) {
  RunReport r = sampleReport();
  r.kinds[0].problems.clear();
  r.kinds[0].tallies[1].failed = 0;
  r.kinds[0].tallies[2].failed = 0;
  const auto problems = problemsOf(r.kinds[0]);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[1].key, "lost|spec.image");
  EXPECT_TRUE(problems[1].warningOnly);
  EXPECT_EQ(problems[1].warningReason, "v0 is neither served nor stored");
}

TEST(ProblemList, SitesAreGroupedByPropertyAndCountedWhenLong) {
  Problem p;
  p.sites = {{"round-trip", "v1", "v2", 1, false},
             {"no-pruned-fields", "v1", "v2", 1, false},
             {"round-trip", "v2", "v1", 1, false},
             {"round-trip", "v3", "v1", 1, false},
             {"tls", "", "", 1, false}};
  EXPECT_EQ(sitesText(p), "round-trip v1->v2 v2->v1 v3->v1; no-pruned-fields v1->v2; tls");
  EXPECT_EQ(sitesText(p, 58), "round-trip v1->v2 +2 pairs; no-pruned-fields v1->v2; tls");
  EXPECT_LE(sitesText(p, 20).size(), 20u);
}

TEST(ProblemList, AProblemIsAtTheTalliesItBreaksAndFirstAtTheFirstOfThem) {
  const RunReport r = sampleReport();
  const KindReport& k = r.kinds[0];
  const auto problems = problemsOf(k);
  const auto atRoundTrip = problemsAt(problems, k.tallies[2]);
  ASSERT_EQ(atRoundTrip.size(), 1u);
  EXPECT_EQ(atRoundTrip[0]->id, "P2");
  EXPECT_TRUE(problemsAt(problems, k.tallies[0]).empty());
  EXPECT_TRUE(isFirstSite(problems[1], k.tallies[1], k));
  EXPECT_FALSE(isFirstSite(problems[1], k.tallies[2], k));
}

}  // namespace
}  // namespace convcheck
