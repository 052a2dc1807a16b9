// Pruning with the target version's structural schema, null pruning and embedded-resource
// coercion (reference §3.1): what a client sees after an accepted conversion.
#include <gtest/gtest.h>

#include "kube/apiserver/apiserver_model.h"
#include "kube/apiserver/object_meta_coerce.h"
#include "kube/apiserver/object_meta_restore.h"
#include "kube/apiserver/pruning.h"
#include "tests/kube/apiserver/model_test_support.h"

namespace convcheck {
namespace {

using nlohmann::json;
using namespace modeltest;

json fooV2Schema() {
  return json::parse(R"({
    "type": "object",
    "properties": {
      "spec": {"type": "object", "properties": {
        "host": {"type": "string"},
        "port": {"type": "string"},
        "items": {"type": "array", "items": {"type": "object",
                  "properties": {"name": {"type": "string"}}}},
        "byName": {"type": "object", "additionalProperties": {"type": "object",
                   "properties": {"v": {"type": "string"}}}},
        "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                 "properties": {"known": {"type": "object",
                                          "properties": {"a": {"type": "string"}}}}},
        "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                     "properties": {"spec": {"type": "object",
                                             "properties": {"replicas": {"type": "integer"}}}}},
        "choice": {"type": "object", "properties": {"a": {"type": "string"}},
                   "allOf": [{"properties": {"b": {"type": "string"}}}],
                   "anyOf": [{"properties": {"c": {"type": "string"}}}]},
        "optional": {"type": "string"},
        "nullableField": {"type": "string", "nullable": true},
        "defaulted": {"type": "string", "default": "x"},
        "list": {"type": "array", "items": {"type": "string"}}
      }},
      "status": {"type": "object", "properties": {"phase": {"type": "string"}}}
    }
  })");
}

json spec(json fields) {
  json object = converted(fooObject());
  object["spec"] = std::move(fields);
  return object;
}

ModelVerdict judgeWithSchema(const json& object, const json& schema = fooV2Schema()) {
  auto sent = sentReview(ReviewVersion::V1, {fooObject()});
  return judgeConversion(sent, answer(responseEnvelope(sent, {object})), schema);
}

std::vector<std::string> silentPaths(const ModelVerdict& v, const std::string& what) {
  std::vector<std::string> out;
  for (const auto& s : v.silent)
    if (s.what == what) out.push_back(s.path);
  return out;
}

TEST(PruningTest, UnknownFieldsArePrunedAndReported) {
  auto v = judgeWithSchema(spec({{"host", "h"}, {"nickname", "n"}}));
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(v.visible[0]["spec"], json({{"host", "h"}}));
  EXPECT_EQ(silentPaths(v, "pruned"), std::vector<std::string>{"spec.nickname"});
  for (const auto& s : v.silent) {
    if (s.path == "spec.nickname") {
      EXPECT_EQ(s.value, "n");
    }
  }
}

TEST(PruningTest, UnknownTopLevelFieldsArePrunedButTheRootKeepsTypeAndObjectMeta) {
  json object = converted(fooObject());
  object["garbage"] = {{"x", 1}};
  auto v = judgeWithSchema(object);
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_FALSE(v.visible[0].contains("garbage"));
  EXPECT_EQ(v.visible[0]["apiVersion"], "stable.example.com/v2");
  EXPECT_EQ(v.visible[0]["kind"], "Foo");
  EXPECT_EQ(v.visible[0]["metadata"]["name"], "foo-1");
  EXPECT_EQ(silentPaths(v, "pruned"), (std::vector<std::string>{"garbage", "spec.hostPort"}));
}

TEST(PruningTest, ItemsArePrunedWithTheirIndexInThePath) {
  auto v = judgeWithSchema(
      spec({{"items", {{{"name", "a"}}, {{"name", "b"}}, {{"name", "c"}, {"x", 1}}}}}));
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(silentPaths(v, "pruned"), std::vector<std::string>{"spec.items[2].x"});
  EXPECT_EQ(v.visible[0]["spec"]["items"][2], json({{"name", "c"}}));
}

TEST(PruningTest, AdditionalPropertiesSchemaAppliesToEveryValue) {
  auto v =
      judgeWithSchema(spec({{"byName", {{"k1", {{"v", "1"}, {"w", "2"}}}, {"k2", {{"v", "3"}}}}}}));
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(v.visible[0]["spec"]["byName"], json({{"k1", {{"v", "1"}}}, {"k2", {{"v", "3"}}}}));
  EXPECT_EQ(silentPaths(v, "pruned"), std::vector<std::string>{"spec.byName.k1.w"});
}

TEST(PruningTest, PreserveUnknownFieldsKeepsUnknownButPrunesInsideKnownProperties) {
  auto v = judgeWithSchema(
      spec({{"free", {{"anything", {{"deep", 1}}}, {"known", {{"a", "x"}, {"b", "y"}}}}}}));
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(v.visible[0]["spec"]["free"]["anything"], json({{"deep", 1}}));
  EXPECT_EQ(v.visible[0]["spec"]["free"]["known"], json({{"a", "x"}}));
  EXPECT_EQ(silentPaths(v, "pruned"), std::vector<std::string>{"spec.free.known.b"});
}

TEST(PruningTest, PreserveUnknownFieldsAtTheRootKeepsEverything) {
  json schema = {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
  auto v = judgeWithSchema(spec({{"whatever", {1, 2}}}), schema);
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(v.visible[0]["spec"]["whatever"], json({1, 2}));
  EXPECT_TRUE(silentPaths(v, "pruned").empty());
}

TEST(PruningTest, EmbeddedResourceKeepsTypeAndObjectMetaAndPrunesTheRest) {
  auto v = judgeWithSchema(
      spec({{"template",
             {{"apiVersion", "apps/v1"},
              {"kind", "Deployment"},
              {"metadata", {{"name", "d"}, {"junk", 1}, {"labels", json::object()}}},
              {"spec", {{"replicas", 2}, {"paused", true}}},
              {"status", {{"x", 1}}}}}}));
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  const json& t = v.visible[0]["spec"]["template"];
  EXPECT_EQ(t["apiVersion"], "apps/v1");
  EXPECT_EQ(t["kind"], "Deployment");
  EXPECT_EQ(t["metadata"], json({{"name", "d"}}));  // ObjectMeta round trip, no null timestamp
  EXPECT_EQ(t["spec"], json({{"replicas", 2}}));
  EXPECT_EQ(silentPaths(v, "pruned"),
            (std::vector<std::string>{"spec.template.spec.paused", "spec.template.status"}));
}

TEST(PruningTest, EmbeddedResourceWithNonStringApiVersionIsRejected) {
  auto v = judgeWithSchema(spec({{"template", {{"apiVersion", 5}, {"kind", "Deployment"}}}}));
  EXPECT_EQ(v.stage, ModelStage::Coerce);
  EXPECT_EQ(v.message, "spec.template.apiVersion: Invalid value: 5: must be a string");
  EXPECT_EQ(v.index, 0u);
}

TEST(PruningTest, EmbeddedResourceWithMalformedMetadataIsRejected) {
  auto v =
      judgeWithSchema(spec({{"template", {{"kind", "Deployment"}, {"metadata", {{"name", 1}}}}}}));
  EXPECT_EQ(v.stage, ModelStage::Coerce);
  EXPECT_EQ(v.message,
            "spec.template.metadata: Invalid value: map[string]interface {}{\"name\":1}: json: "
            "cannot unmarshal number into Go struct field ObjectMeta.name of type string");
}

TEST(PruningTest, EmbeddedResourceErrorsInListItemsAndMapValuesNameTheirPath) {
  const json schema = json::parse(R"({"type": "object", "properties": {"spec": {
    "type": "object", "properties": {
      "list": {"type": "array",
               "items": {"type": "object", "x-kubernetes-embedded-resource": true}},
      "byName": {"type": "object", "additionalProperties": {
                 "type": "object", "x-kubernetes-embedded-resource": true}}}}}})");
  json inList = {{"spec", {{"list", json::array({{{"kind", "A"}}, {{"kind", 1}}})}}}};
  EXPECT_EQ(coerceEmbeddedResources(inList, schema),
            "spec.list[1].kind: Invalid value: 1: must be a string");
  json inMap = {{"spec", {{"byName", {{"b", {{"apiVersion", true}}}}}}}};
  EXPECT_EQ(coerceEmbeddedResources(inMap, schema),
            "spec.byName[b].apiVersion: Invalid value: true: must be a string");
}

TEST(PruningTest, CompositionBranchesDoNotAddProperties) {
  auto v = judgeWithSchema(spec({{"choice", {{"a", "1"}, {"b", "2"}, {"c", "3"}}}}));
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(v.visible[0]["spec"]["choice"], json({{"a", "1"}}));
  EXPECT_EQ(silentPaths(v, "pruned"), (std::vector<std::string>{"spec.choice.b", "spec.choice.c"}));
}

TEST(PruningTest, ScalarsAreNotTypeChecked) {
  auto v = judgeWithSchema(spec({{"host", 5}, {"items", "not a list"}}));
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(v.visible[0]["spec"]["host"], 5);
  EXPECT_EQ(v.visible[0]["spec"]["items"], "not a list");
}

TEST(PruningTest, NullSchemaPrunesNothing) {
  auto v = judgeWithSchema(spec({{"nickname", "n"}}), nullptr);
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(v.visible[0]["spec"]["nickname"], "n");
  EXPECT_TRUE(v.silent.empty());
}

TEST(NullPruningTest, NonNullableNullsWithoutDefaultAreDropped) {
  auto v = judgeWithSchema(spec({{"optional", nullptr},
                                 {"nullableField", nullptr},
                                 {"defaulted", nullptr},
                                 {"list", {"a", nullptr}}}));
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  const json& s = v.visible[0]["spec"];
  EXPECT_FALSE(s.contains("optional"));
  EXPECT_TRUE(s.contains("nullableField") && s["nullableField"].is_null());
  EXPECT_TRUE(s.contains("defaulted") && s["defaulted"].is_null());  // defaulted later, not here
  EXPECT_EQ(s["list"], json({"a", nullptr}));                        // nulls in lists stay
  EXPECT_EQ(silentPaths(v, "null-pruned"), std::vector<std::string>{"spec.optional"});
}

TEST(NullPruningTest, NullsOfUnknownFieldsArePrunedAsUnknownNotAsNulls) {
  auto v = judgeWithSchema(spec({{"nickname", nullptr}}));
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(silentPaths(v, "pruned"), std::vector<std::string>{"spec.nickname"});
  EXPECT_TRUE(silentPaths(v, "null-pruned").empty());
}

TEST(PruneFunctionTest, NonRootObjectsLoseTypeMetaUnlessEmbedded) {
  json object = {{"apiVersion", "v1"}, {"kind", "X"}, {"metadata", json::object()}, {"a", 1}};
  json schema = {{"type", "object"}, {"properties", {{"a", {{"type", "integer"}}}}}};
  auto pruned = pruneUnknownFields(object, schema, /*isResourceRoot=*/false);
  EXPECT_EQ(object, json({{"a", 1}}));
  EXPECT_EQ(pruned.size(), 3u);
}

TEST(PruneFunctionTest, BooleanAdditionalPropertiesKeepsScalarsButEmptiesObjects) {
  json object = {{"m", {{"s", "x"}, {"o", {{"k", 1}}}}}};
  json schema = {{"type", "object"},
                 {"properties", {{"m", {{"type", "object"}, {"additionalProperties", true}}}}}};
  pruneUnknownFields(object, schema);
  EXPECT_EQ(object, json({{"m", {{"s", "x"}, {"o", json::object()}}}}));
}

TEST(ObjectMetaRoundTripFunctionTest, DropsUnknownAndEmptyFields) {
  auto rt = objectMetaRoundTrip(json{{"name", "n"},
                                     {"namespace", ""},
                                     {"generation", 0},
                                     {"labels", {{"a", nullptr}}},
                                     {"finalizers", json::array()},
                                     {"ownerReferences", {{{"kind", "Pod"}, {"extra", 1}}}},
                                     {"unknown", true}});
  ASSERT_TRUE(rt.error.empty()) << rt.error;
  EXPECT_EQ(
      rt.metadata,
      json({{"name", "n"},
            {"labels", {{"a", ""}}},
            {"ownerReferences", {{{"apiVersion", ""}, {"kind", "Pod"}, {"name", ""}, {"uid", ""}}}},
            {"creationTimestamp", nullptr}}));
}

TEST(ObjectMetaRoundTripFunctionTest, WrongTypesAreGoDecodeErrors) {
  EXPECT_EQ(objectMetaRoundTrip(json{{"generation", 1.5}}).error,
            "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type "
            "int64");
  EXPECT_EQ(objectMetaRoundTrip(json("x")).error,
            "json: cannot unmarshal string into Go value of type v1.ObjectMeta");
  EXPECT_EQ(objectMetaRoundTrip(json{{"labels", {1}}}).error,
            "json: cannot unmarshal array into Go struct field ObjectMeta.labels of type "
            "map[string]string");
  EXPECT_NE(
      objectMetaRoundTrip(json{{"creationTimestamp", "yesterday"}}).error.find("parsing time"),
      std::string::npos);
}

TEST(ObjectMetaRoundTripFunctionTest, NestedFieldTypeErrorsNameTheStructAndTheField) {
  EXPECT_EQ(objectMetaRoundTrip(json{{"managedFields", {{{"manager", 5}}}}}).error,
            "json: cannot unmarshal number into Go struct field "
            "ManagedFieldsEntry.managedFields.manager of type string");
  EXPECT_EQ(objectMetaRoundTrip(json{{"managedFields", {{{"operation", true}}}}}).error,
            "json: cannot unmarshal bool into Go struct field "
            "ManagedFieldsEntry.managedFields.operation of type v1.ManagedFieldsOperationType");
  EXPECT_EQ(objectMetaRoundTrip(json{{"managedFields", {{{"time", 1}}}}}).error,
            "json: cannot unmarshal number into Go struct field "
            "ManagedFieldsEntry.managedFields.time of type string");
  EXPECT_EQ(objectMetaRoundTrip(json{{"ownerReferences", {{{"uid", 5}}}}}).error,
            "json: cannot unmarshal number into Go struct field "
            "OwnerReference.ownerReferences.uid of type types.UID");
  EXPECT_EQ(objectMetaRoundTrip(json{{"ownerReferences", {{{"controller", "yes"}}}}}).error,
            "json: cannot unmarshal string into Go struct field "
            "OwnerReference.ownerReferences.controller of type bool");
  EXPECT_EQ(objectMetaRoundTrip(json{{"finalizers", "x"}}).error,
            "json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type "
            "[]string");
  EXPECT_EQ(objectMetaRoundTrip(json{{"uid", 5}}).error,
            "json: cannot unmarshal number into Go struct field ObjectMeta.uid of type types.UID");
}

TEST(ObjectMetaRoundTripFunctionTest, TimestampsCrossingDaysAndYearsAreWrittenInUtc) {
  auto at = [](const char* time) {
    return objectMetaRoundTrip(json{{"creationTimestamp", time}}).metadata["creationTimestamp"];
  };
  EXPECT_EQ(at("2024-12-31T23:30:00-01:00"), "2025-01-01T00:30:00Z");
  EXPECT_EQ(at("2024-03-01T00:15:09.5+00:30"), "2024-02-29T23:45:09Z");
  EXPECT_EQ(at("0001-01-01T00:30:00+01:00"), "0000-12-31T23:30:00Z");
  EXPECT_EQ(at("9999-12-31T23:59:59Z"), "9999-12-31T23:59:59Z");
  EXPECT_EQ(at("9999-12-31T23:59:59-00:01"), "10000-01-01T00:00:59Z");
  auto managed =
      objectMetaRoundTrip(json{{"managedFields", {{{"time", "2024-05-01T02:03:04+02:00"}}}}});
  EXPECT_EQ(managed.metadata["managedFields"][0]["time"], "2024-05-01T00:03:04Z");
}

// The restored metadata's round trip read in place (the original's metadata with the answer's
// labels and annotations) equals the round trip of the metadata restoreObjectMeta builds, errors
// included, whatever the original holds.
TEST(ObjectMetaRoundTripFunctionTest, ReadingTheRestoredMetadataInPlaceGivesTheSameResult) {
  const std::vector<json> originals = {
      json::object(),
      json{{"name", "n"}, {"labels", {{"a", "1"}}}, {"annotations", {{"x", "y"}}}},
      json{{"name", "n"},
           {"creationTimestamp", "2024-05-01T02:03:04+02:00"},
           {"finalizers", {"f", nullptr}},
           {"generation", 3},
           {"unknown", 1},
           {"managedFields", {{{"manager", "m"}, {"fieldsV1", {{"f:spec", json::object()}}}}}}},
      json{{"creationTimestamp", "yesterday"}, {"labels", {{"a", "1"}}}},
      json{{"annotations", {{"x", "y"}}}, {"generation", 1.5}, {"uid", 5}},
      json{{"labels", nullptr}, {"deletionTimestamp", 7}, {"namespace", "ns"}},
  };
  const std::vector<json> answers = {
      json::object(),
      json{{"labels", {{"a", "2"}}}},
      json{{"annotations", {{"x", "z"}, {"w", ""}}}, {"labels", nullptr}, {"name", "other"}},
      json{{"labels", json::object()}, {"annotations", json::object()}},
  };
  for (const json& originalMeta : originals) {
    for (const json& answerMeta : answers) {
      const json original{{"kind", "Foo"}, {"metadata", originalMeta}};
      json copied{{"kind", "Foo"}, {"metadata", answerMeta}};
      json inPlace = copied;
      ASSERT_EQ(restoreObjectMeta(original, copied), "");
      ASSERT_EQ(restoreLabelsAndAnnotations(original, inPlace), "");
      const ObjectMetaRoundTrip expected = objectMetaRoundTrip(copied["metadata"]);
      const ObjectMetaRoundTrip got = objectMetaRoundTrip(originalMeta, inPlace["metadata"]);
      EXPECT_EQ(got.error, expected.error) << originalMeta << " " << answerMeta;
      EXPECT_EQ(got.metadata, expected.metadata) << originalMeta << " " << answerMeta;
    }
  }
}

TEST(ObjectMetaRoundTripFunctionTest, RestoringLabelsAndAnnotationsChecksAsRestoringAll) {
  const json original{{"metadata", {{"name", "n"}, {"labels", {{"a", "1"}}}}}};
  for (const json& answerMeta : {json{{"labels", {{"a", 1}}}}, json{{"labels", {{"-bad", "1"}}}},
                                 json{{"annotations", "x"}}, json{{"labels", {{"a", "2"}}}}}) {
    json copied{{"metadata", answerMeta}};
    json inPlace = copied;
    EXPECT_EQ(restoreLabelsAndAnnotations(original, inPlace), restoreObjectMeta(original, copied))
        << answerMeta;
  }
  json missing = json::object();
  EXPECT_EQ(restoreLabelsAndAnnotations(original, missing), "missing metadata in converted object");
  json kept{{"metadata", {{"labels", {{"a", "2"}}}, {"name", "changed"}}}};
  ASSERT_EQ(restoreLabelsAndAnnotations(original, kept), "");
  EXPECT_EQ(kept["metadata"], (json{{"labels", {{"a", "2"}}}}));
}

TEST(CoerceEmbeddedResourcesTest, ReadsTheRootMetadataOnlyWhenTheSchemaCanReachIt) {
  EXPECT_FALSE(coerceReadsRootMetadata(nullptr));
  EXPECT_FALSE(coerceReadsRootMetadata(
      json::parse(R"({"type": "object", "properties": {"spec": {"type": "object"}}})")));
  EXPECT_FALSE(coerceReadsRootMetadata(
      json::parse(R"({"type": "object", "properties": {"metadata": {"type": "object"}}})")));
  EXPECT_TRUE(coerceReadsRootMetadata(json::parse(
      R"({"type": "object", "properties": {"metadata": {"type": "object",
          "properties": {"name": {"type": "string"}}}}})")));
  EXPECT_TRUE(coerceReadsRootMetadata(json::parse(
      R"({"type": "object", "properties": {"metadata": {"type": "object",
          "additionalProperties": {"type": "object", "x-kubernetes-embedded-resource": true}}}})")));
  EXPECT_TRUE(
      coerceReadsRootMetadata(json::parse(R"({"type": "object", "additionalProperties": true})")));
  EXPECT_TRUE(coerceReadsRootMetadata(
      json::parse(R"({"type": "object", "x-kubernetes-embedded-resource": true})")));
}

}  // namespace
}  // namespace convcheck
