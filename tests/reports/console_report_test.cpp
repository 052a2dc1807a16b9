// The console report: a digest of the problems first (one line each, most severe first), the
// properties' verdicts, then one block per problem; the reproduction command once; lines within
// 160 characters; always valid UTF-8.
#include "reports/console_report.h"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "kube/go/utf8.h"
#include "tests/reports/sample_report.h"

namespace convcheck {
namespace {

using testing::sampleReport;

std::string consoleOf(const RunReport& report) {
  std::ostringstream out;
  printConsoleReport(report, out, false);
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

}  // namespace
}  // namespace convcheck
