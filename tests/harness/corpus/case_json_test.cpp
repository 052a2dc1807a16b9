// The "case" of regression files and bundles: what is written is read back, the seed is text
// (above 2^53 too), and each broken field is refused with the file and the field named.
#include "harness/corpus/case_json.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

using nlohmann::json;

CaseJson storedCase() {
  return {"v1beta1",
          18446744073709551557ull,
          {json{{"apiVersion", "stable.example.com/v1"}, {"kind", "CronTab"}}}};
}

std::string caseErrorOf(const json& j) {
  auto read = caseFromJson(j, "DIR/x.json");
  return std::holds_alternative<std::string>(read) ? std::get<std::string>(read) : "";
}

TEST(CaseJson, WhatIsWrittenIsReadBack) {
  json j = caseToJson(storedCase());
  EXPECT_EQ(j["seed"], "18446744073709551557");
  auto read = caseFromJson(j, "x.json");
  ASSERT_TRUE(std::holds_alternative<CaseJson>(read)) << std::get<std::string>(read);
  EXPECT_EQ(std::get<CaseJson>(read).to, "v1beta1");
  EXPECT_EQ(std::get<CaseJson>(read).seed, 18446744073709551557ull);
  EXPECT_EQ(std::get<CaseJson>(read).objects, storedCase().objects);
}

TEST(CaseJson, FieldsOfTheCallerAreIgnored) {
  json j = caseToJson(storedCase());
  j["cause"] = "dropped-field";
  EXPECT_EQ(caseErrorOf(j), "");
}

TEST(CaseJson, ANumericSeedIsAcceptedToo) {
  json j = caseToJson(storedCase());
  j["seed"] = 42;
  auto read = caseFromJson(j, "x.json");
  ASSERT_TRUE(std::holds_alternative<CaseJson>(read));
  EXPECT_EQ(std::get<CaseJson>(read).seed, 42u);
}

TEST(CaseJson, ASeedMustBeAnUnsignedDecimal) {
  for (const char* seed : {"", "12abc", "-1", " 1", "+1", "0x10", "18446744073709551616"}) {
    json j = caseToJson(storedCase());
    j["seed"] = seed;
    EXPECT_EQ(caseErrorOf(j), "DIR/x.json: case.seed: must be a decimal unsigned 64-bit integer")
        << seed;
  }
  json j = caseToJson(storedCase());
  j["seed"] = -1;  // a negative number would wrap to another seed
  EXPECT_EQ(caseErrorOf(j), "DIR/x.json: case.seed: must be a decimal unsigned 64-bit integer");
  j["seed"] = true;
  EXPECT_EQ(caseErrorOf(j), "DIR/x.json: case.seed: must be a decimal string or a number");
  j.erase("seed");
  EXPECT_EQ(caseErrorOf(j), "DIR/x.json: case.seed: required");
}

TEST(CaseJson, EachMissingOrBrokenFieldIsNamed) {
  EXPECT_EQ(caseErrorOf(json::array()), "DIR/x.json: case: required (an object)");
  json j = caseToJson(storedCase());
  j.erase("to");
  EXPECT_EQ(caseErrorOf(j), "DIR/x.json: case.to: required");
  j["to"] = 1;
  EXPECT_EQ(caseErrorOf(j), "DIR/x.json: case.to: must be a string");
  j = caseToJson(storedCase());
  j["objects"] = json::array();
  EXPECT_EQ(caseErrorOf(j), "DIR/x.json: case.objects: required (a non-empty list)");
  j["objects"] = json::array({storedCase().objects[0], json{{"kind", "CronTab"}}});
  EXPECT_EQ(caseErrorOf(j), "DIR/x.json: case.objects[1]: must be an object with apiVersion");
}

}  // namespace
}  // namespace convcheck
