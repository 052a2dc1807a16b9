// Sample objects: completed as kube-apiserver stores them, and varied into new valid objects.
#include <gtest/gtest.h>

#include "harness/corpus/sample_objects.h"
#include "tests/harness/corpus/corpus_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;

json sample() {
  return json::parse(R"({"apiVersion":"stable.example.com/v1","kind":"CronTab",
    "metadata":{"name":"nightly"},
    "spec":{"cronSpec":"*/5 * * * *","image":"nginx:1.25","replicas":3,"host":"db","port":"5432"}})");
}

TEST(SampleObjects, StoredFormAddsTheMetadataEveryStoredObjectHas) {
  const auto& kind = testing::cronTabKind();
  json stored = asStoredObject(sample(), kind.crd(), 1);
  EXPECT_EQ(stored["metadata"]["name"], "nightly");
  EXPECT_EQ(stored["metadata"]["namespace"], "default");
  EXPECT_EQ(stored["metadata"]["generation"], 1);
  EXPECT_TRUE(stored["metadata"]["uid"].is_string());
  EXPECT_TRUE(kind.violations(stored, "v1").empty()) << kind.violations(stored, "v1").front();
  EXPECT_EQ(asStoredObject(sample(), kind.crd(), 1), stored) << "deterministic for a seed";
}

TEST(SampleObjects, StoredFormKeepsWhatIsThere) {
  json s = sample();
  s["metadata"]["namespace"] = "prod";
  s["metadata"]["uid"] = "0b5a1e64-3c2b-4b41-9a8b-5d7e2a1c9f00";
  json stored = asStoredObject(s, testing::cronTabKind().crd(), 1);
  EXPECT_EQ(stored["metadata"]["namespace"], "prod");
  EXPECT_EQ(stored["metadata"]["uid"], "0b5a1e64-3c2b-4b41-9a8b-5d7e2a1c9f00");
}

TEST(SampleObjects, ClusterScopedKindsLoseTheirNamespace) {
  Crd crd = testing::cronTabKind().crd();
  crd.namespaced = false;
  json s = sample();
  s["metadata"]["namespace"] = "x";
  EXPECT_FALSE(asStoredObject(s, crd, 1)["metadata"].contains("namespace"));
}

TEST(SampleObjects, VariantsAreValidDifferentAndDeterministic) {
  const auto& kind = testing::cronTabKind();
  json stored = asStoredObject(sample(), kind.crd(), 1);
  auto variants =
      sampleVariants(stored, kind.generators().at("v1"), kind.checkers().at("v1"), 5, 4);
  ASSERT_FALSE(variants.empty());
  for (const auto& v : variants) {
    EXPECT_TRUE(kind.violations(v, "v1").empty()) << v.dump(2);
    EXPECT_NE(v, stored);
    EXPECT_EQ(v["metadata"], stored["metadata"]) << "metadata is the sample's";
  }
  EXPECT_EQ(variants,
            sampleVariants(stored, kind.generators().at("v1"), kind.checkers().at("v1"), 5, 4));
}

TEST(SampleObjects, ReadObjectsUnpacksListsAndNamesDocuments) {
  auto docs = readObjects(
      "apiVersion: v1\nkind: List\nitems:\n- {kind: A}\n- {kind: B}\n---\nkind: C\n", "f.yaml");
  ASSERT_EQ(docs.objects.size(), 3u);
  EXPECT_EQ(docs.objects[1].where, "f.yaml, document 1, items[1]");
  EXPECT_EQ(docs.objects[2].where, "f.yaml, document 2");
  EXPECT_TRUE(docs.errors.empty());
}

}  // namespace
}  // namespace convcheck
