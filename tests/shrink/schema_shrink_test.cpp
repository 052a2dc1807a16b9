// Schema-directed shrinking of objects without a shrink tree: one edit at a time, never the
// identity a stored object must keep, down to what the failure needs.
#include <gtest/gtest.h>

#include "shrink/object_size.h"
#include "shrink/schema_shrink.h"
#include "tests/shrink/shrink_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;

json bigCronTab() {
  return json::parse(R"({
    "apiVersion": "stable.example.com/v1", "kind": "CronTab",
    "metadata": {"name": "nightly-backup-7", "namespace": "team-a",
      "uid": "0b5a1e64-3c2b-4b41-9a8b-5d7e2a1c9f00", "creationTimestamp": "2024-01-01T00:00:00Z",
      "generation": 4, "resourceVersion": "81723",
      "labels": {"app": "backup", "tier": "ops"}, "annotations": {"note": "keep me"},
      "finalizers": ["example.com/cleanup"],
      "managedFields": [{"manager": "kubectl", "operation": "Update",
        "apiVersion": "stable.example.com/v1", "fieldsType": "FieldsV1",
        "fieldsV1": {"f:spec": {}}, "time": "2024-01-01T00:00:00Z"}]},
    "spec": {"cronSpec": "*/5 * * * *", "image": "registry.example.com/backup:v1.2.3",
             "replicas": 40, "host": "db.internal.example.com", "port": "5432"},
    "status": {"active": 3, "lastScheduleTime": "2024-01-01T10:00:00Z"}})");
}

bool valid(const json& o) { return testing::cronTab().violations(o, "v1").empty(); }

TEST(SchemaShrink, EditsNeverTouchApiVersionKindUidOrTimestamp) {
  const SchemaNodePtr root = testing::cronTab().schemas().roots.at("v1");
  for (const auto& e : simplerEdits(bigCronTab(), root.get())) {
    const std::string at = e.at.to_string();
    EXPECT_NE(at, "/apiVersion");
    EXPECT_NE(at, "/kind");
    EXPECT_NE(at, "/metadata/uid");
    EXPECT_NE(at, "/metadata/creationTimestamp");
    if (e.remove) {
      EXPECT_NE(at, "/metadata/name");
      EXPECT_NE(at, "/metadata/namespace");
      EXPECT_NE(at, "/metadata/generation");
    }
  }
}

TEST(SchemaShrink, BiggestRemovalsComeFirst) {
  const SchemaNodePtr root = testing::cronTab().schemas().roots.at("v1");
  auto edits = simplerEdits(bigCronTab(), root.get());
  ASSERT_FALSE(edits.empty());
  for (std::size_t i = 1; i < edits.size(); ++i) {
    if (edits[i].weight > 0) {
      EXPECT_LE(edits[i].weight, edits[i - 1].weight);
    }
  }
}

TEST(SchemaShrink, GreedyShrinkKeepsOnlyWhatTheFailureNeedsAndStaysValid) {
  const SchemaNodePtr root = testing::cronTab().schemas().roots.at("v1");
  ASSERT_TRUE(valid(bigCronTab()));
  int accepted = 0;
  // The "bug": an image longer than 8 characters.
  json out = greedyShrink(
      bigCronTab(), root.get(),
      [&](const json& o) {
        if (!valid(o)) return false;
        ++accepted;
        return o["spec"].contains("image") && o["spec"]["image"].get<std::string>().size() > 8;
      },
      [] { return false; });
  EXPECT_TRUE(valid(out));
  EXPECT_EQ(out["spec"]["image"].get<std::string>().size(), 9u);
  EXPECT_EQ(optionalFieldCount(out, root.get()), 1) << out.dump(2);
  EXPECT_FALSE(out.contains("status"));
  EXPECT_FALSE(out["metadata"].contains("labels"));
  EXPECT_EQ(out["metadata"]["uid"], bigCronTab()["metadata"]["uid"]);
}

TEST(SchemaShrink, NumbersMoveTowardTheSchemaMinimum) {
  const SchemaNodePtr root = testing::cronTab().schemas().roots.at("v1");
  json out = greedyShrink(
      bigCronTab(), root.get(),
      [&](const json& o) {
        return valid(o) && o["spec"].contains("replicas") && o["spec"]["replicas"] >= 7;
      },
      [] { return false; });
  EXPECT_EQ(out["spec"]["replicas"], 7);
}

TEST(SchemaShrink, NamesShortenFromEitherEnd) {
  const SchemaNodePtr root = testing::cronTab().schemas().roots.at("v1");
  // A webhook that fails for names ending in a digit: the shortest such valid name is one digit.
  json out = greedyShrink(
      bigCronTab(), root.get(),
      [&](const json& o) {
        const std::string name = o["metadata"]["name"];
        return valid(o) && !name.empty() && std::isdigit(static_cast<unsigned char>(name.back()));
      },
      [] { return false; });
  EXPECT_EQ(out["metadata"]["name"], "7");
}

TEST(SchemaShrink, StopEndsTheSearch) {
  const SchemaNodePtr root = testing::cronTab().schemas().roots.at("v1");
  int calls = 0;
  GreedyStats stats;
  greedyShrink(
      bigCronTab(), root.get(),
      [&](const json&) {
        ++calls;
        return true;
      },
      [&] { return calls >= 4; }, &stats);
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(stats.accepted, 4);
}

}  // namespace
}  // namespace convcheck
