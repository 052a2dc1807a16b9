// The text of one finding that the console and JUnit share: each part appears when the finding
// has it and not otherwise, the console's compact form leaves out what it prints once or keeps in
// the bundle, and webhook bytes that are not UTF-8 never stop it.
#include "reports/failure_text.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "kube/go/utf8.h"

namespace convcheck {
namespace {

using nlohmann::json;

bool textHas(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

json widget(const std::string& image) {
  return {{"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"spec", {{"image", image}}}};
}

Finding lossFinding() {
  Finding f;
  f.property = "round-trip";
  f.from = "v1";
  f.to = "v2";
  f.summary = "a read-modify-write at v2 silently deletes spec.image";
  f.expected = widget("nginx");
  f.got = {{"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"spec", json::object()}};
  f.caseObjects = SharedObjects::own({widget("nginx")});
  return f;
}

RunReport reportWithCommand() {
  RunReport r;
  r.command = "convcheck run --crd widgets.yaml --seed 7";
  return r;
}

TEST(CaseName, NamesThePairAndThePropertyOrThePropertyAlone) {
  PropertyTally pair{"round-trip", "v1beta1", "v1", 1, 0, 0, {}, "", false};
  EXPECT_EQ(caseName(pair), "v1beta1 -> v1: round-trip");
  PropertyTally endpoint{"tls", "", "", 1, 0, 0, {}, "", false};
  EXPECT_EQ(caseName(endpoint), "tls");
}

TEST(CauseHeadline, IsEmptyWithoutACauseAndCountsCasesInWords) {
  Finding f = lossFinding();
  EXPECT_EQ(causeHeadline(f), "");
  f.cause = Cause{"round-trip|lost|spec.image", Severity::DataLoss, "spec.image is lost", ""};
  f.cases = 1;
  EXPECT_EQ(causeHeadline(f), "data loss: spec.image is lost (1 case)");
  f.cases = 12;
  f.cause->severity = Severity::Cosmetic;
  EXPECT_EQ(causeHeadline(f), "cosmetic: spec.image is lost (12 cases)");
}

TEST(FailureText, ShowsTheSummaryTheDiffTheInputAndTheReproduction) {
  Finding f = lossFinding();
  const BundleRef bundle{"/nonexistent/out/bundles/widget-P1 v1-v2",
                         "curl --data-binary @request-1.json https://127.0.0.1:9443/convert"};
  const std::string text = failureText(f, reportWithCommand(), &bundle);
  EXPECT_EQ(text.rfind(f.summary + "\n", 0), 0u) << text;
  EXPECT_TRUE(textHas(text, "diff (expected -> got):\n- spec.image: \"nginx\"\n")) << text;
  EXPECT_TRUE(textHas(text, "input: 1 object(s):\n{\n  \"apiVersion\"")) << text;
  EXPECT_TRUE(textHas(text, "reproduce: convcheck run --crd widgets.yaml --seed 7\n")) << text;
  // The bundle path has a space: the replay line quotes it for the shell.
  EXPECT_TRUE(
      textHas(text, "replay: convcheck replay '/nonexistent/out/bundles/widget-P1 v1-v2'\n"))
      << text;
  EXPECT_TRUE(textHas(text, "curl: " + bundle.curl + "\n")) << text;
  EXPECT_FALSE(textHas(text, "kube-apiserver rejects this")) << text;
  EXPECT_FALSE(textHas(text, "shrunk from")) << text;
  EXPECT_FALSE(textHas(text, "found by")) << text;
}

TEST(FailureText, ShowsTheApiServersMessageAndEachDetailIndented) {
  Finding f;
  f.property = "converts-valid-input";
  f.summary = "kube-apiserver rejects the conversion";
  f.apiserverMessage = "conversion webhook returned HTTP 500";
  f.details = {"index 0: spec.port: must be an integer", "index 1: spec: required"};
  const std::string text = failureText(f, RunReport{});
  EXPECT_EQ(text,
            "kube-apiserver rejects the conversion\n"
            "kube-apiserver rejects this: conversion webhook returned HTTP 500\n"
            "  index 0: spec.port: must be an integer\n"
            "  index 1: spec: required\n");
}

TEST(FailureText, TheCompactFormLeavesOutTheCommandAndTheCurlLine) {
  Finding f = lossFinding();
  const BundleRef bundle{"/nonexistent/bundle", "curl https://127.0.0.1:9443/convert"};
  const std::string text = failureText(f, reportWithCommand(), &bundle, true);
  EXPECT_FALSE(textHas(text, "reproduce:")) << text;
  EXPECT_FALSE(textHas(text, "curl:")) << text;
  EXPECT_TRUE(textHas(text, "replay: convcheck replay /nonexistent/bundle\n")) << text;
  // One small object is shown inline, on one line.
  EXPECT_TRUE(textHas(text, "input: " + widget("nginx").dump() + "\n")) << text;
}

TEST(FailureText, TheReplayLineStartsTheWebhookAgainWhenTheRunStartedIt) {
  Finding f = lossFinding();
  const BundleRef bundle{"/nonexistent/bundle", ""};
  RunReport report = reportWithCommand();
  report.reach = {WebhookReach::How::Command, {"./webhook", "--port", "{port}"}, true};
  EXPECT_TRUE(
      textHas(failureText(f, report, &bundle, true),
              "replay: convcheck replay /nonexistent/bundle -- ./webhook --port '{port}'\n"))
      << failureText(f, report, &bundle, true);
  report.reach = {WebhookReach::How::PortForward, {}, false};
  EXPECT_TRUE(textHas(failureText(f, report, &bundle, true),
                      "replay: convcheck replay /nonexistent/bundle --port-forward\n"));
}

TEST(FailureText, TheCompactFormNamesTheBundleForALargeInputInsteadOfPrintingIt) {
  Finding f = lossFinding();
  f.caseObjects = SharedObjects::own({widget(std::string(200, 'a'))});
  std::string text = failureText(f, RunReport{}, nullptr, true);
  EXPECT_TRUE(textHas(text, "input: 1 object(s), ")) << text;
  EXPECT_TRUE(textHas(text, "run with --report-dir to keep the full objects")) << text;
  EXPECT_FALSE(textHas(text, std::string(200, 'a'))) << text;
  const BundleRef bundle{"/nonexistent/bundle", ""};
  text = failureText(f, RunReport{}, &bundle, true);
  EXPECT_TRUE(textHas(text, "full objects in /nonexistent/bundle/request-1.json")) << text;
  // Two objects, however small, are counted rather than shown.
  f.caseObjects = SharedObjects::own({widget("a"), widget("b")});
  text = failureText(f, RunReport{}, nullptr, true);
  EXPECT_TRUE(textHas(text, "input: 2 object(s), ")) << text;
}

TEST(FailureText, TheFullFormShowsUpToFourObjectsAndOnlyTheFirstOfMore) {
  Finding f = lossFinding();
  f.caseObjects = SharedObjects::own({widget("a"), widget("b"), widget("c"), widget("d")});
  std::string text = failureText(f, RunReport{});
  EXPECT_TRUE(textHas(text, "input: 4 object(s):\n")) << text;
  EXPECT_TRUE(textHas(text, "\"image\": \"d\"")) << text;
  f.caseObjects =
      SharedObjects::own({widget("a"), widget("b"), widget("c"), widget("d"), widget("e")});
  text = failureText(f, RunReport{});
  EXPECT_TRUE(textHas(text, "input: 5 object(s); first:\n")) << text;
  EXPECT_TRUE(textHas(text, "\"image\": \"a\"")) << text;
  EXPECT_FALSE(textHas(text, "\"image\": \"b\"")) << text;
}

TEST(FailureText, WithoutCaseObjectsTheBatchIsTheInputAndShrinkingMarksIt) {
  Finding f = lossFinding();
  f.caseObjects = SharedObjects();
  f.batch = SharedObjects::own({widget("from-batch")});
  f.shrink = ShrinkInfo{3, 1, 40, 4, 2048, 90, 1, 17, 5, true, false};
  const std::string text = failureText(f, RunReport{});
  EXPECT_TRUE(textHas(text, "input (shrunk): 1 object(s):\n")) << text;
  EXPECT_TRUE(textHas(text, "from-batch")) << text;
  EXPECT_TRUE(textHas(text, shrinkSummary(*f.shrink) + "\n")) << text;
}

TEST(FailureText, NamesWhereACaseCameFromUnlessItWasGenerated) {
  Finding f = lossFinding();
  f.origin = "generated";
  EXPECT_FALSE(textHas(failureText(f, RunReport{}), "found by")) << failureText(f, RunReport{});
  f.origin = "corpus testdata/widget-1.json";
  EXPECT_TRUE(textHas(failureText(f, RunReport{}), "found by: corpus testdata/widget-1.json\n"));
}

TEST(FailureText, ALongDiffIsCutShorterInTheCompactForm) {
  Finding f = lossFinding();
  json expected = json::object(), got = json::object();
  for (int i = 0; i < 50; ++i) expected["k" + std::to_string(100 + i)] = i;
  f.expected = expected;
  f.got = got;
  EXPECT_TRUE(textHas(failureText(f, RunReport{}, nullptr, true), "... 38 more differences"));
  EXPECT_TRUE(textHas(failureText(f, RunReport{}), "... 10 more differences"));
}

TEST(FailureText, InputBytesThatAreNotUtf8AreReplacedNotThrown) {
  Finding f = lossFinding();
  f.caseObjects = SharedObjects::own({widget("caf\xC3 \xFF")});
  std::string text;
  ASSERT_NO_THROW(text = failureText(f, RunReport{}));
  EXPECT_EQ(firstInvalidUtf8(text), std::string::npos);
  EXPECT_TRUE(textHas(text, "caf\xEF\xBF\xBD")) << text;
  ASSERT_NO_THROW(text = failureText(f, RunReport{}, nullptr, true));
  EXPECT_EQ(firstInvalidUtf8(text), std::string::npos);
}

TEST(ShrinkSummary, GivesSizesInReadableUnitsAndSaysWhenItMayNotBeMinimal) {
  ShrinkInfo s;
  s.originalObjects = 14;
  s.originalFields = 812;
  s.originalBytes = 20582;
  s.shrunkObjects = 1;
  s.shrunkFields = 9;
  s.optionalFields = 1;
  s.shrunkBytes = 312;
  s.calls = 23;
  EXPECT_EQ(shrinkSummary(s),
            "shrunk from 14 object(s), 812 fields, 20.1 KiB to 1 object(s), 9 fields (1 optional), "
            "312 B in 23 webhook call(s)");
  s.originalBytes = 30u * 1024 * 1024;
  s.reproduced = false;
  s.budgetExhausted = true;
  const std::string text = shrinkSummary(s);
  EXPECT_TRUE(textHas(text, "30.0 MiB")) << text;
  EXPECT_TRUE(textHas(text, "; no smaller case failed the same way")) << text;
  EXPECT_TRUE(textHas(text, "; --shrink-budget spent, so it may not be minimal")) << text;
}

TEST(ShrinkSummary, AnExampleNeverShrunkSaysWhyAndClaimsNothingAboutSmallerCases) {
  ShrinkInfo s;
  s.originalObjects = s.shrunkObjects = 3;
  s.originalFields = s.shrunkFields = 40;
  s.originalBytes = s.shrunkBytes = 900;
  s.reproduced = false;  // what the shrinker leaves when it made no call
  std::string text = shrinkSummary(s, true);
  EXPECT_EQ(text, "not shrunk (the run was interrupted): 3 object(s), 40 fields, 900 B");
  text = shrinkSummary(s);
  EXPECT_FALSE(textHas(text, "no smaller case")) << text;
  EXPECT_EQ(text.rfind("not shrunk (shrinking was off or stopped before its first call)", 0), 0u)
      << text;
  s.budgetExhausted = true;
  EXPECT_EQ(shrinkSummary(s).rfind("not shrunk (the run's --shrink-budget was spent", 0), 0u);
  // Interrupted once the failure was seen again: shrunk as far as it went.
  s.calls = 5;
  s.reproduced = true;
  s.budgetExhausted = false;
  EXPECT_EQ(shrinkSummary(s, true).rfind("shrunk from 3 object(s)", 0), 0u);
}

TEST(ProblemText, AProblemWhoseCaseShowsGraverOnesIsLedByItsOwnTitleAndNamesThem) {
  KindReport kind;
  Problem lost;
  lost.id = "P1";
  lost.key = "lost|spec.port";
  lost.severity = Severity::DataLoss;
  Problem stamp;
  stamp.id = "P2";
  stamp.key = "added|metadata.annotations[\"x/converted-by\"]";
  stamp.severity = Severity::Cosmetic;
  stamp.title = "metadata.annotations[\"x/converted-by\"] is added (\"hook\")";
  stamp.example = lossFinding();
  stamp.example.summary = "a read-modify-write at v2 silently deletes spec.port; adds metadata";
  stamp.example.causes = {
      Cause{"round-trip|lost|spec.port", Severity::DataLoss, "spec.port is lost (was 1)",
            "spec.port", "lost|spec.port"},
      Cause{"round-trip|added|x", Severity::Cosmetic, stamp.title, "", stamp.key}};
  kind.problems = {lost, stamp};
  const std::string text = problemText(kind.problems[1], kind, RunReport{});
  EXPECT_EQ(
      text.rfind("cosmetic: metadata.annotations[\"x/converted-by\"] is added (\"hook\"); the "
                 "same case also shows spec.port is lost (was 1) (data loss, P1)\n",
                 0),
      0u)
      << text;
  EXPECT_FALSE(textHas(text, "silently deletes")) << text;
  EXPECT_TRUE(textHas(text, "diff (expected -> got):")) << text;
  // A problem as grave as anything its case shows is led by the property's sentence.
  EXPECT_EQ(problemText(kind.problems[0], kind, RunReport{}),
            failureText(lost.example, RunReport{}));
}

TEST(ShownPath, IsRelativeBelowTheWorkingDirectoryAndAbsoluteElsewhere) {
  namespace fs = std::filesystem;
  const fs::path cwd = fs::current_path();
  EXPECT_EQ(shownPath((cwd / "out" / "bundles" / "b1").string()), "out/bundles/b1");
  EXPECT_EQ(shownPath("/nonexistent-root-dir/b1"), "/nonexistent-root-dir/b1");
}

}  // namespace
}  // namespace convcheck
