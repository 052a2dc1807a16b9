// Case sizes: fields, bytes and the fields a schema does not require.
#include <gtest/gtest.h>

#include "shrink/object_size.h"
#include "tests/shrink/shrink_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;

json minimalCronTabV1() {
  return json::parse(R"({"apiVersion":"stable.example.com/v1","kind":"CronTab",
    "metadata":{"name":"a","namespace":"b","uid":"0b5a1e64-3c2b-4b41-9a8b-5d7e2a1c9f00",
                "creationTimestamp":"2024-01-01T00:00:00Z","generation":1},
    "spec":{"host":"h","port":"1"}})");
}

TEST(ObjectSize, FieldCountCountsMembersAndItemsBelowTheRoot) {
  EXPECT_EQ(fieldCount(json::parse(R"({"a":1,"b":{"c":[1,2]}})")), 5);
  EXPECT_EQ(fieldCount(json(3)), 0);
}

TEST(ObjectSize, MeasureBatchAddsObjectsFieldsAndBytes) {
  auto size = measureBatch({json{{"a", 1}}, json{{"b", "xy"}}});
  EXPECT_EQ(size.objects, 2);
  EXPECT_EQ(size.fields, 2);
  EXPECT_EQ(size.bytes, std::string(R"({"a":1})").size() + std::string(R"({"b":"xy"})").size());
}

TEST(ObjectSize, AMinimalObjectHasNoOptionalFields) {
  const SchemaNodePtr root = testing::cronTab().schemas().roots.at("v1");
  EXPECT_EQ(optionalFieldCount(minimalCronTabV1(), root.get()), 0);
}

TEST(ObjectSize, OptionalFieldsIncludeSchemaFieldsMetadataAndTheirContents) {
  const SchemaNodePtr root = testing::cronTab().schemas().roots.at("v1");
  json o = minimalCronTabV1();
  o["spec"]["image"] = "nginx";              // optional in the schema
  o["metadata"]["labels"] = {{"app", "x"}};  // optional metadata + one entry
  o["status"] = {{"active", 1}};             // optional status + its field
  EXPECT_EQ(optionalFieldCount(o, root.get()), 1 + 2 + 2);
}

}  // namespace
}  // namespace convcheck
