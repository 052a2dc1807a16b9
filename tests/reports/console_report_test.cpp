// The console report: a digest of the problems first (one line each, most severe first), the
// properties' verdicts, then a block for each of the most severe problems and a line with its
// bundle for each other; the reproduction command once; lines within 160 characters; always
// valid UTF-8; a kind that was not tested never says "no problems".
#include "reports/console_report.h"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "kube/go/utf8.h"
#include "tests/reports/sample_report.h"

namespace convcheck {
namespace {

using testing::sampleReport;

std::string consoleOf(const RunReport& report, const WrittenBundles& bundles = {}) {
  std::ostringstream out;
  printConsoleReport(report, bundles, out);
  return out.str();
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::size_t countOf(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ConsoleReport, TheDigestListsEveryProblemOnOneLineBeforeAnyDetail) {
  const auto lines = linesOf(consoleOf(sampleReport()));
  std::size_t digest = 0;
  while (digest < lines.size() && lines[digest] != "  2 problems:") ++digest;
  ASSERT_LT(digest + 2, lines.size());
  EXPECT_EQ(lines[digest + 1].rfind("    P1  outage        kube-apiserver rejects the answer", 0),
            0u)
      << lines[digest + 1];
  EXPECT_NE(lines[digest + 1].find("(4 cases): converts-valid-input v1beta1->v1"),
            std::string::npos)
      << lines[digest + 1];
  EXPECT_EQ(lines[digest + 2].rfind("    P2  data loss     spec.image is lost", 0), 0u)
      << lines[digest + 2];
  EXPECT_NE(lines[digest + 2].find("round-trip v1->v1beta1 v1beta1->v1 v0->v1"), std::string::npos);
  // No problem's block comes before the digest.
  for (std::size_t i = 0; i < digest; ++i) EXPECT_EQ(lines[i].find("diff"), std::string::npos);
}

TEST(ConsoleReport, PropertiesAreGroupedByVerdict) {
  const std::string text = consoleOf(sampleReport());
  EXPECT_NE(text.find("  FAIL converts-valid-input (4 of 10 cases, 1 pair), round-trip (5 of 30 "
                      "cases, 2 pairs)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  pass order, timeout"), std::string::npos) << text;
  EXPECT_NE(text.find("  n/a  determinism"), std::string::npos) << text;
}

TEST(ConsoleReport, EachProblemHasOneBlockWithItsDiffAndTheCommandIsPrintedOnce) {
  const std::string text = consoleOf(sampleReport());
  EXPECT_EQ(countOf(text, "\nP2 data loss (CronTab): spec.image is lost"), 1u) << text;
  EXPECT_EQ(countOf(text, "- spec.image: \"x\""), 1u) << text;
  EXPECT_EQ(countOf(text, "reproduce: "), 1u) << text;
  EXPECT_EQ(countOf(text, "convcheck run --crd crontab.yaml"), 1u) << text;
  EXPECT_NE(text.find("kube-apiserver rejects this: conversion webhook returned HTTP 500"),
            std::string::npos);
  EXPECT_NE(text.find("seed 18446744073709551557; 12.5 s; 2 problems (3 failed property check(s))"),
            std::string::npos)
      << text;
}

TEST(ConsoleReport, TheVersionsSayTheirRoles) {
  const std::string text = consoleOf(sampleReport());
  EXPECT_NE(text.find("v0 (not served, not stored: findings only warn)"), std::string::npos)
      << text;
}

TEST(ConsoleReport, NoLineIsLongerThan160CharactersForLongTitles) {
  RunReport r = sampleReport(std::string(100, 'y'));
  for (const auto& line : linesOf(consoleOf(r))) {
    // Values that cannot be cut: the diff's, and the webhook's own message.
    const bool value = line.find("- spec.image") != std::string::npos ||
                       line.find("+ spec") != std::string::npos ||
                       line.find("kube-apiserver rejects this: ") != std::string::npos;
    if (!value) {
      EXPECT_LE(line.size(), 160u) << line;
    }
  }
}

TEST(ConsoleReport, TheWebhooksOwnMessageIsShownWhole) {
  const std::string message = "conversion webhook returned HTTP 500: " + std::string(300, 'm');
  EXPECT_NE(consoleOf(sampleReport(std::string(300, 'm'))).find(message), std::string::npos);
}

TEST(ConsoleReport, WebhookBytesThatAreNotUtf8AreReplaced) {
  const std::string text = consoleOf(sampleReport("bad \xC3\x28 \xFF"));
  EXPECT_EQ(firstInvalidUtf8(text), std::string::npos);
  EXPECT_NE(text.find("bad \xEF\xBF\xBD( \xEF\xBF\xBD"), std::string::npos);
}

TEST(ConsoleReport, ARunWithoutProblemsSaysSo) {
  RunReport r = sampleReport();
  r.exitCode = 0;
  for (auto& t : r.kinds[0].tallies) t.failed = 0;
  r.kinds[0].problems.clear();
  const std::string text = consoleOf(r);
  EXPECT_NE(text.find("  no problems"), std::string::npos) << text;
  EXPECT_NE(text.find("all properties held"), std::string::npos) << text;
}

// A report with `n` problems of one kind, P1 most severe, each with a bundle.
RunReport reportWithProblems(int n, WrittenBundles& bundles) {
  RunReport r = sampleReport();
  KindReport& k = r.kinds[0];
  const Problem model = k.problems[1];
  k.problems.clear();
  for (int i = 0; i < n; ++i) {
    Problem p = model;
    p.id = "P" + std::to_string(i + 1);
    p.title = "spec.field" + std::to_string(i + 1) + " is lost (was 1)";
    p.cases = 1000 - i;
    k.problems.push_back(p);
  }
  for (const auto& p : k.problems) bundles.add(k, p, {"out/bundles/CronTab-" + p.id, ""});
  return r;
}

TEST(ConsoleReport, ManyProblemsAreEachOneDigestLineButOnlyTheMostSevereAreShownInFull) {
  WrittenBundles bundles;
  const RunReport r = reportWithProblems(60, bundles);
  const std::string text = consoleOf(r, bundles);
  for (int i = 1; i <= 60; ++i)  // every problem in the digest
    EXPECT_NE(text.find("\n    P" + std::to_string(i) + " "), std::string::npos) << i;
  // Blocks for the 20 most severe, one line with its bundle for each other.
  EXPECT_NE(text.find("\nP20 data loss (CronTab): spec.field20 is lost"), std::string::npos);
  EXPECT_EQ(text.find("\nP21 data loss (CronTab)"), std::string::npos) << text;
  EXPECT_NE(text.find("40 problems more, one line each"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  P21 data loss (CronTab): spec.field21 is lost (was 1); bundle: "
                      "out/bundles/CronTab-P21\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(countOf(text, "diff (expected -> got)"), 20u);
  EXPECT_LT(linesOf(text).size(), 60u + 20u * 12u + 60u);
}

TEST(ConsoleReport, TheFirstProblemOfEachSeverityIsShownInFullWhateverComesBefore) {
  WrittenBundles bundles;
  RunReport r = reportWithProblems(30, bundles);
  Problem rejected = r.kinds[0].problems.back();
  rejected.id = "P31";
  rejected.severity = Severity::Rejected;
  rejected.title = "conversion failed: boom";
  rejected.cases = 1;
  r.kinds[0].problems.push_back(rejected);
  const std::string text = consoleOf(r, bundles);
  EXPECT_NE(text.find("\nP31 rejected (CronTab): conversion failed: boom"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\nP19 data loss (CronTab)"), std::string::npos);
  EXPECT_EQ(text.find("\nP20 data loss (CronTab)"), std::string::npos);
  EXPECT_EQ(countOf(text, "diff (expected -> got)"), 20u);
}

TEST(ConsoleReport, TheBlockOfAProblemNamesItsBundle) {
  const RunReport r = sampleReport();
  WrittenBundles bundles;
  bundles.add(r.kinds[0], r.kinds[0].problems[1],
              {"out/bundles/CronTab-P2-v1-v1beta1-round-trip", ""});
  const std::string text = consoleOf(r, bundles);
  EXPECT_NE(
      text.find("    replay: convcheck replay out/bundles/CronTab-P2-v1-v1beta1-round-trip\n"),
      std::string::npos)
      << text;
  EXPECT_EQ(countOf(text, "replay: "), 1u) << text;
}

TEST(ConsoleReport, TheDigestShowsARejectionsOwnMessage) {
  RunReport r = sampleReport();
  r.kinds[0].problems[0].title =
      "kube-apiserver rejects the answer: conversion webhook for stable.example.com/v1beta1, "
      "Kind=CronTab failed: Cannot read properties of undefined (reading 'apiKeyVerification')";
  const std::string text = consoleOf(r);
  EXPECT_NE(
      text.find("    P1  outage        conversion failed: Cannot read properties of undefined "
                "(reading 'apiKeyVerification') (4 cases)"),
      std::string::npos)
      << text;
}

TEST(ConsoleReport, AKindWithoutAJudgedCaseSaysNothingWasTestedNotNoProblems) {
  RunReport r = sampleReport();
  r.exitCode = 3;
  r.fatalError = "crontabs.stable.example.com: could not reach the webhook: Connect: refused";
  r.kinds[0].problems.clear();
  for (auto& t : r.kinds[0].tallies) {
    t.blocked += t.passed + t.failed;
    t.passed = t.failed = 0;
    t.blockedBy = "the webhook could not be reached";
  }
  const std::string text = consoleOf(r);
  EXPECT_EQ(text.find("no problems"), std::string::npos) << text;
  EXPECT_NE(text.find("  nothing was tested: the webhook could not be reached"), std::string::npos)
      << text;
  EXPECT_NE(text.find("nothing was tested (exit 3)"), std::string::npos) << text;
  EXPECT_NE(text.find("error: crontabs.stable.example.com: could not reach"), std::string::npos);
  ConsoleOptions saidElsewhere;
  saidElsewhere.fatalError = false;
  std::ostringstream out;
  printConsoleReport(r, {}, out, saidElsewhere);
  EXPECT_EQ(out.str().find("error: "), std::string::npos) << out.str();
}

TEST(ConsoleReport, ACosmeticProblemsBlockIsNotLedByTheDataLossItsCaseAlsoShows) {
  RunReport r = sampleReport();
  Problem& p = r.kinds[0].problems[1];
  p.severity = Severity::Cosmetic;
  p.title = "metadata.annotations[\"x/by\"] is added (\"hook\")";
  p.example.causes = {Cause{"round-trip|lost|spec.image", Severity::DataLoss,
                            "spec.image is lost (was \"x\")", "spec.image", "lost|spec.image"}};
  const std::string text = consoleOf(r);
  const auto block = text.find("\nP2 cosmetic (CronTab)");
  ASSERT_NE(block, std::string::npos) << text;
  const auto lead = text.find("\n    ", text.find("breaks", block));
  const std::string expected = "\n    cosmetic: metadata.annotations[\"x/by\"]";
  EXPECT_EQ(text.substr(lead, expected.size()), expected) << text;
  EXPECT_EQ(text.find("silently deletes", block), std::string::npos) << text;
}

}  // namespace
}  // namespace convcheck
