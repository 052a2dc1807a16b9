// JUnit XML: one testsuite per kind, one testcase per (property, pair) whose failure lists the
// problems it shows, real times and a timestamp; every document is valid UTF-8 and valid against
// the Jenkins xUnit junit-10 schema (checked with xmllint), whatever bytes the webhook answered.
#include "reports/junit_report.h"

#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "kube/go/utf8.h"
#include "tests/reports/sample_report.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;
using testing::sampleReport;

pugi::xml_node suiteOf(const pugi::xml_document& doc) {
  return doc.child("testsuites").child("testsuite");
}

pugi::xml_node testcase(const pugi::xml_document& doc, const char* name) {
  return suiteOf(doc).find_child_by_attribute("testcase", "name", name);
}

// xmllint's verdict on `xml` against tests/reports/junit-10.xsd: "" when valid.
std::string schemaErrors(const std::string& xml) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path file =
      fs::path(::testing::TempDir()) /
      ("junit-" + std::string(test->name()) + "-" + std::to_string(::getpid()) + ".xml");
  std::ofstream(file, std::ios::binary) << xml;
  const fs::path log = file.string() + ".log";
  const std::string command = "xmllint --noout --schema '" CONVCHECK_SOURCE_DIR
                              "/tests/reports/junit-10.xsd' '" +
                              file.string() + "' > '" + log.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fs::remove(file);
  fs::remove(log);
  return status == 0 ? "" : "xmllint exit " + std::to_string(status) + ": " + text;
}

TEST(JunitReport, OneSuitePerKindOneCasePerPairAndProperty) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(renderJunit(sampleReport()).c_str()));
  auto suite = suiteOf(doc);
  EXPECT_STREQ(suite.attribute("name").value(), "CronTab (crontabs.stable.example.com)");
  EXPECT_EQ(suite.attribute("tests").as_int(), 7);
  EXPECT_EQ(suite.attribute("failures").as_int(), 3);
  EXPECT_EQ(suite.attribute("skipped").as_int(), 2);  // the warning and the not-evaluable case
  EXPECT_TRUE(testcase(doc, "v1 -> v1beta1: determinism").child("skipped"));
  EXPECT_NE(std::string(testcase(doc, "v1 -> v1beta1: timeout").child("system-out").text().get())
                .find("p99 3.5 ms"),
            std::string::npos);
}

TEST(JunitReport, AFailureNamesEveryProblemItShowsWithItsId) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(renderJunit(sampleReport()).c_str()));
  auto failure = testcase(doc, "v1 -> v1beta1: round-trip").child("failure");
  ASSERT_TRUE(failure);
  EXPECT_STREQ(failure.attribute("type").value(), "round-trip");
  EXPECT_STREQ(failure.attribute("message").value(),
               "P2 data loss: spec.image is lost (was \"x\")");
  auto rejected = testcase(doc, "v1beta1 -> v1: converts-valid-input").child("failure");
  EXPECT_EQ(std::string(rejected.attribute("message").value()).rfind("P1 outage: ", 0), 0u);
}

TEST(JunitReport, AProblemIsShownInFullAtItsFirstTestcaseAndReferredToElsewhere) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(renderJunit(sampleReport()).c_str()));
  const std::string first =
      testcase(doc, "v1 -> v1beta1: round-trip").child("failure").text().get();
  EXPECT_NE(first.find("breaks round-trip v1->v1beta1 v1beta1->v1 v0->v1"), std::string::npos)
      << first;
  EXPECT_NE(first.find("- spec.image: \"x\""), std::string::npos) << first;
  EXPECT_NE(first.find("reproduce: convcheck run --crd crontab.yaml"), std::string::npos);
  EXPECT_NE(first.find("passed 7, failed 3, not evaluable 0"), std::string::npos);
  const std::string second =
      testcase(doc, "v1beta1 -> v1: round-trip").child("failure").text().get();
  EXPECT_NE(second.find("shown in full under \"v1 -> v1beta1: round-trip\""), std::string::npos)
      << second;
  EXPECT_EQ(second.find("- spec.image"), std::string::npos) << second;
}

TEST(JunitReport, AFailingSiteIsNamedByTheRunsProblemsOnlyNeverByItsOwnFindings) {
  RunReport r = sampleReport();
  r.kinds[0].problems.erase(r.kinds[0].problems.begin());  // P1, the only one at this site
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(renderJunit(r).c_str()));
  auto failure = testcase(doc, "v1beta1 -> v1: converts-valid-input").child("failure");
  EXPECT_STREQ(failure.attribute("message").value(), "4 case(s) failed");
  const std::string body = failure.text().get();
  EXPECT_EQ(body.find("kube-apiserver rejects this"), std::string::npos) << body;
  EXPECT_NE(body.find("passed 6, failed 4"), std::string::npos) << body;
}

TEST(JunitReport, TheFullTextOfAProblemNamesItsBundle) {
  const RunReport r = sampleReport();
  WrittenBundles bundles;
  bundles.add(r.kinds[0], r.kinds[0].problems[1],
              {"/out/bundles/CronTab-P2-v1-v1beta1-round-trip", "curl --data-binary @x"});
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(renderJunit(r, bundles).c_str()));
  const std::string first =
      testcase(doc, "v1 -> v1beta1: round-trip").child("failure").text().get();
  EXPECT_NE(first.find("replay: convcheck replay /out/bundles/CronTab-P2-v1-v1beta1-round-trip\n"),
            std::string::npos)
      << first;
  EXPECT_NE(first.find("curl: curl --data-binary @x\n"), std::string::npos) << first;
}

TEST(JunitReport, AWarningOnlySiteIsSkippedWithItsReason) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(renderJunit(sampleReport()).c_str()));
  auto tc = testcase(doc, "v0 -> v1: round-trip");
  ASSERT_TRUE(tc.child("skipped"));
  EXPECT_FALSE(tc.child("failure"));
  EXPECT_NE(std::string(tc.child("skipped").attribute("message").value())
                .find("warning only (v0 is neither served nor stored): P2"),
            std::string::npos);
}

TEST(JunitReport, SuitesCarryTheKindsTimeAndTheStartTestcasesTheirShare) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(renderJunit(sampleReport()).c_str()));
  auto suite = suiteOf(doc);
  EXPECT_STREQ(suite.attribute("time").value(), "12.000");
  EXPECT_STREQ(suite.attribute("timestamp").value(), "2026-11-26T12:00:00Z");
  double sum = 0;
  for (auto tc : suite.children("testcase")) {
    EXPECT_GT(tc.attribute("time").as_double(), 0) << tc.attribute("name").value();
    sum += tc.attribute("time").as_double();
  }
  EXPECT_NEAR(sum, 12.0, 0.01);
  EXPECT_STREQ(doc.child("testsuites").attribute("time").value(), "12.500");
}

TEST(JunitReport, TheRootCarriesNoSkippedCountWhichTheSchemaForbids) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(renderJunit(sampleReport()).c_str()));
  EXPECT_FALSE(doc.child("testsuites").attribute("skipped"));
  EXPECT_EQ(doc.child("testsuites").attribute("failures").as_int(), 3);
}

TEST(JunitReport, FatalErrorBecomesAnErroredTestcase) {
  RunReport r;
  r.fatalError = "could not reach the webhook";
  r.exitCode = 3;
  const std::string xml = renderJunit(r);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(xml.c_str()));
  EXPECT_EQ(doc.child("testsuites").attribute("errors").as_int(), 1);
  EXPECT_STREQ(suiteOf(doc).child("testcase").child("error").attribute("message").value(),
               "could not reach the webhook");
  EXPECT_EQ(schemaErrors(xml), "");
}

TEST(JunitReport, EveryDocumentIsValidAgainstTheJunit10Schema) {
  EXPECT_EQ(schemaErrors(renderJunit(sampleReport())), "");
  RunReport interrupted = sampleReport();
  interrupted.interrupted = true;
  EXPECT_EQ(schemaErrors(renderJunit(interrupted)), "");
  EXPECT_EQ(schemaErrors(renderJunit(RunReport{})), "");
}

TEST(JunitReport, InvalidBytesAndControlCharactersFromTheWebhookBecomeValidXml) {
  const std::string xml = renderJunit(sampleReport("bad \xC3 \xFF\x01 \xEF\xBF\xBE end"));
  EXPECT_EQ(firstInvalidUtf8(xml), std::string::npos);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(xml.c_str()));
  const std::string message = testcase(doc, "v1beta1 -> v1: converts-valid-input")
                                  .child("failure")
                                  .attribute("message")
                                  .value();
  EXPECT_NE(message.find("bad \xEF\xBF\xBD \xEF\xBF\xBD\\x01 \\uFFFE end"), std::string::npos)
      << message;
  EXPECT_EQ(schemaErrors(xml), "");
}

TEST(JunitReport, MultiByteCharactersAtEveryShorteningBoundaryStayWhole) {
  // Titles, messages and diff values are shortened at 60, 160, 200 and 300 bytes: values of
  // two-, three- and four-byte characters at every offset cross each of those boundaries.
  for (const std::string ch : {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"}) {
    for (std::size_t offset = 0; offset < 4; ++offset) {
      const std::string text = std::string(offset, 'a') + [&] {
        std::string s;
        for (int k = 0; k < 110; ++k) s += ch;
        return s;
      }();
      const std::string xml = renderJunit(sampleReport(text));
      ASSERT_EQ(firstInvalidUtf8(xml), std::string::npos) << "offset " << offset;
      pugi::xml_document doc;
      ASSERT_TRUE(doc.load_string(xml.c_str())) << "offset " << offset;
      if (offset == 0) {
        EXPECT_EQ(schemaErrors(xml), "") << ch;
      }
    }
  }
}

}  // namespace
}  // namespace convcheck
