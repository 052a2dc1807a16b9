// The regression case file format (format 1): what convcheck writes it reads back, unknown
// formats and broken fields are refused with the file and field named, names are content hashes.
#include <gtest/gtest.h>

#include "harness/corpus/regression_case.h"

namespace convcheck {
namespace {

using nlohmann::json;

RegressionCase sample() {
  RegressionCase c;
  c.crd = "crontabs.stable.example.com";
  c.kind = "CronTab";
  c.property = "round-trip";
  c.from = "v1";
  c.to = "v1beta1";
  c.part = "composite";
  c.caseTo = "v1beta1";
  c.seed = 18446744073709551557ull;  // above 2^53: must survive tools that read JSON as doubles
  c.objects = {json{{"apiVersion", "stable.example.com/v1"}, {"kind", "CronTab"}}};
  c.summary = "spec.image is lost";
  return c;
}

TEST(RegressionCase, WhatIsWrittenIsReadBack) {
  auto parsed = regressionFromJson(regressionToJson(sample()), "x.json");
  ASSERT_TRUE(std::holds_alternative<RegressionCase>(parsed)) << std::get<std::string>(parsed);
  const auto& c = std::get<RegressionCase>(parsed);
  EXPECT_EQ(c.crd, "crontabs.stable.example.com");
  EXPECT_EQ(c.property, "round-trip");
  EXPECT_EQ(c.part, "composite");
  EXPECT_EQ(c.caseTo, "v1beta1");
  EXPECT_EQ(c.seed, 18446744073709551557ull);
  EXPECT_EQ(c.objects, sample().objects);
}

TEST(RegressionCase, TheFileSaysItsFormatAndKeepsTheSeedAsText) {
  json j = regressionToJson(sample());
  EXPECT_EQ(j["format"], 1);
  EXPECT_TRUE(j["case"]["seed"].is_string());
}

TEST(RegressionCase, AnUnknownFormatIsRefusedNamingTheFile) {
  json j = regressionToJson(sample());
  j["format"] = 2;
  auto parsed = regressionFromJson(j, "DIR/r.json");
  ASSERT_TRUE(std::holds_alternative<std::string>(parsed));
  EXPECT_NE(std::get<std::string>(parsed).find("DIR/r.json"), std::string::npos);
  EXPECT_NE(std::get<std::string>(parsed).find("format 2"), std::string::npos);
}

TEST(RegressionCase, ObjectsWithoutApiVersionAreRefusedNamingTheIndex) {
  json j = regressionToJson(sample());
  j["case"]["objects"].push_back(json{{"kind", "CronTab"}});
  auto parsed = regressionFromJson(j, "r.json");
  ASSERT_TRUE(std::holds_alternative<std::string>(parsed));
  EXPECT_NE(std::get<std::string>(parsed).find("case.objects[1]"), std::string::npos);
}

TEST(RegressionCase, ANumericSeedIsAcceptedToo) {
  json j = regressionToJson(sample());
  j["case"]["seed"] = 42;
  auto parsed = regressionFromJson(j, "r.json");
  ASSERT_TRUE(std::holds_alternative<RegressionCase>(parsed));
  EXPECT_EQ(std::get<RegressionCase>(parsed).seed, 42u);
}

TEST(RegressionCase, FileNamesNameThePairAndHashTheCase) {
  RegressionCase a = sample(), b = sample();
  EXPECT_EQ(regressionFileName(a), regressionFileName(b));
  EXPECT_EQ(regressionFileName(a).rfind("round-trip-v1-v1beta1-", 0), 0u);
  b.objects[0]["spec"] = {{"image", "x"}};
  EXPECT_NE(regressionFileName(a), regressionFileName(b));
  b = sample();
  b.summary = "another wording";
  EXPECT_EQ(regressionFileName(a), regressionFileName(b)) << "the summary is not the case";
}

}  // namespace
}  // namespace convcheck
