// How reports name the run's problems: the sites as short text, where a problem shows and its
// first testcase, and a digest title that keeps a rejection's own message.
#include "reports/problem_list.h"

#include <gtest/gtest.h>

#include "tests/reports/sample_report.h"

namespace convcheck {
namespace {

using testing::sampleReport;

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
  const auto& problems = k.problems;
  const auto atRoundTrip = problemsAt(problems, k.tallies[2]);
  ASSERT_EQ(atRoundTrip.size(), 1u);
  EXPECT_EQ(atRoundTrip[0]->id, "P2");
  EXPECT_TRUE(problemsAt(problems, k.tallies[0]).empty());
  EXPECT_TRUE(isFirstSite(problems[1], k.tallies[1], k));
  EXPECT_FALSE(isFirstSite(problems[1], k.tallies[2], k));
}

TEST(ProblemList, TheDigestTitleOfARejectionKeepsTheWebhooksMessage) {
  Problem p;
  p.title =
      "kube-apiserver rejects the answer: conversion webhook for triage.example.dev/v1alpha1, "
      "Kind=GatewayList failed: Cannot read properties of undefined (reading 'map')";
  EXPECT_EQ(digestTitle(p, 200),
            "conversion failed: Cannot read properties of undefined (reading 'map')");
  p.title =
      "kube-apiserver rejects the answer: conversion webhook for triage.example.dev/v1alpha1, "
      "Kind=GatewayList returned invalid converted object at index 2: invalid groupVersion";
  EXPECT_EQ(digestTitle(p, 200),
            "the webhook returned invalid converted object at index 2: invalid groupVersion");
  p.title = "spec.image is lost (was \"x\")";
  EXPECT_EQ(digestTitle(p, 200), p.title);
  EXPECT_LE(digestTitle(p, 10).size(), 10u);
}

}  // namespace
}  // namespace convcheck
