#include "reports/junit_report.h"

#include <gtest/gtest.h>
#include <pugixml.hpp>

#include "reports/json_report.h"

namespace convcheck {
namespace {

RunReport sample() {
  RunReport r;
  r.seed = 42;
  r.command = "convcheck run --crd x.yaml --seed 42";
  KindReport k;
  k.kind = "CronTab";
  k.crdName = "crontabs.stable.example.com";
  PropertyTally pass{"order", "v1beta1", "v1", 10, 0, 0, {}, "", false};
  PropertyTally fail{"round-trip", "v1", "v1beta1", 7, 3, 0, {}, "", false};
  Finding f;
  f.property = "round-trip";
  f.summary = "a read-modify-write at v1beta1 silently deletes spec.image\x01";
  f.expected = {{"spec", {{"image", "x"}}}};
  f.got = {{"spec", nlohmann::json::object()}};
  fail.findings.push_back(f);
  PropertyTally blocked{
      "determinism", "v1", "v1beta1", 0, 0, 5, {}, "the forward conversion was rejected", false};
  PropertyTally timeout{"timeout", "v1", "v1beta1", 10, 0, 0, {}, "", false};
  k.tallies = {pass, fail, blocked, timeout};
  LatencyStats l;
  l.from = "v1";
  l.to = "v1beta1";
  l.batchSizes = "1";
  l.samples = 10;
  l.p50Ms = 1.5;
  l.p95Ms = 2.5;
  l.p99Ms = 3.5;
  l.maxMs = 4;
  k.latency.push_back(l);
  r.kinds.push_back(k);
  r.exitCode = 1;
  return r;
}

TEST(JunitReport, OneSuitePerKindOneCasePerPairAndProperty) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(renderJunit(sample()).c_str()));
  auto suite = doc.child("testsuites").child("testsuite");
  EXPECT_STREQ(suite.attribute("name").value(), "CronTab (crontabs.stable.example.com)");
  EXPECT_EQ(suite.attribute("tests").as_int(), 4);
  auto timeout = suite.find_child_by_attribute("testcase", "name", "v1 -> v1beta1: timeout");
  EXPECT_NE(std::string(timeout.child("system-out").text().get()).find("p99 3.5 ms"),
            std::string::npos);
  EXPECT_EQ(suite.attribute("failures").as_int(), 1);
  EXPECT_EQ(suite.attribute("skipped").as_int(), 1);
  auto failing = suite.find_child_by_attribute("testcase", "name", "v1 -> v1beta1: round-trip");
  ASSERT_TRUE(failing);
  auto failure = failing.child("failure");
  EXPECT_STREQ(failure.attribute("type").value(), "round-trip");
  std::string text = failure.text().get();
  EXPECT_NE(text.find("- spec.image: \"x\""), std::string::npos);
  EXPECT_NE(text.find("reproduce: convcheck run --crd x.yaml --seed 42"), std::string::npos);
  EXPECT_NE(std::string(failure.attribute("message").value()).find("\\x01"), std::string::npos);
  auto skipped = suite.find_child_by_attribute("testcase", "name", "v1 -> v1beta1: determinism");
  EXPECT_TRUE(skipped.child("skipped"));
}

TEST(JunitReport, FatalErrorBecomesAnErroredTestcase) {
  RunReport r;
  r.fatalError = "could not reach the webhook";
  r.exitCode = 3;
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(renderJunit(r).c_str()));
  EXPECT_EQ(doc.child("testsuites").attribute("errors").as_int(), 1);
  EXPECT_STREQ(doc.child("testsuites")
                   .child("testsuite")
                   .child("testcase")
                   .child("error")
                   .attribute("message")
                   .value(),
               "could not reach the webhook");
}

TEST(JsonReport, CarriesVerdictsAndFindings) {
  auto j = reportToJson(sample());
  EXPECT_EQ(j["seed"], 42);
  auto results = j["kinds"][0]["results"];
  EXPECT_EQ(results[1]["verdict"], "fail");
  EXPECT_EQ(results[1]["findings"][0]["property"], "round-trip");
  EXPECT_EQ(results[2]["verdict"], "not-evaluable");
}

}  // namespace
}  // namespace convcheck
