// The stored form of an object, the baseline round-trip compares with: pruned, nulls pruned,
// metadata round-tripped through ObjectMeta and numbers normalised, whatever the schema says of
// the root metadata.
#include "properties/checks/stored_form.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

using nlohmann::json;

const json kObject = json::parse(R"({
  "apiVersion": "g/v1", "kind": "W",
  "metadata": {"name": "a", "unknown": 1, "creationTimestamp": "2024-05-01T02:03:04+02:00",
               "labels": {"x": "1"}},
  "spec": {"size": 2.0, "gone": true, "nothing": null}
})");

json schemaWithMetadata(const json& metadata) {
  return json{
      {"type", "object"},
      {"properties",
       {{"metadata", metadata},
        {"spec",
         {{"type", "object"},
          {"properties", {{"size", {{"type", "number"}}}, {"nothing", {{"type", "string"}}}}}}}}}};
}

TEST(StoredForm, PrunesRoundTripsTheMetadataAndNormalisesNumbers) {
  const json expected = json::parse(R"({
    "apiVersion": "g/v1", "kind": "W",
    "metadata": {"name": "a", "creationTimestamp": "2024-05-01T00:03:04Z", "labels": {"x": "1"}},
    "spec": {"size": 2}
  })");
  // metadata as kubebuilder writes it, and one the schema's walk reads (a named field).
  for (const json& metadata :
       {json{{"type", "object"}},
        json{{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}}}) {
    EXPECT_EQ(storedForm(kObject, schemaWithMetadata(metadata)), expected) << metadata;
  }
}

TEST(StoredForm, KeepsMetadataThatDoesNotDecodeAndLeavesObjectsWithoutMetadataAlone) {
  json bad = kObject;
  bad["metadata"]["name"] = 5;
  const json schema = schemaWithMetadata({{"type", "object"}});
  EXPECT_EQ(storedForm(bad, schema)["metadata"], bad["metadata"]);
  json bare = kObject;
  bare.erase("metadata");
  EXPECT_FALSE(storedForm(bare, schema).contains("metadata"));
  EXPECT_EQ(storedForm(json::array({1}), nullptr), json::array({1}));
}

}  // namespace
}  // namespace convcheck
