// The single-object path of webhook_converter.go (reference §2.4): parse, apiVersion, kind,
// validateConvertedObject, restoreObjectMeta's structural errors.
#include <gtest/gtest.h>

#include "kube/apiserver/apiserver_model.h"
#include "kube/apiserver/unstructured_object.h"
#include "tests/kube/apiserver/model_test_support.h"

namespace convcheck {
namespace {

using nlohmann::json;
using namespace modeltest;

const std::string kG = "conversion webhook for stable.example.com/v1, Kind=Foo ";

// Judges a v1 review of fooObject() answered with `element` as the only converted object, given
// as raw JSON text so the exact bytes are under the test's control.
ModelVerdict judgeElement(const std::string& element, json original = fooObject()) {
  auto sent = sentReview(ReviewVersion::V1, {std::move(original)});
  std::string body =
      std::string(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview",)") +
      R"("response":{"uid":")" + kRequestUid +
      R"(","result":{"status":"Success"},"convertedObjects":[)" + element + "]}}";
  return judgeConversion(sent, answer(body), nullptr);
}

ModelVerdict judgeObject(const json& object, json original = fooObject()) {
  return judgeElement(object.dump(), std::move(original));
}

// The model skips the syntax scan of elements of a body it already scanned (RawSyntax::Checked):
// for such elements, and for an empty Raw, that gives exactly what the full parse gives.
TEST(ObjectParseTest, AnElementOfAScannedBodyParsesAsWithTheScan) {
  const std::optional<std::string> raws[] = {
      std::nullopt,
      R"({"apiVersion":"stable.example.com/v1","kind":"Foo","spec":{"s":"a\"b","n":1.5}})",
      R"([1,2])", R"("text")", R"({"apiVersion":"v1"})"};
  for (const auto& raw : raws) {
    UnstructuredParse full = parseUnstructured(raw, RawSyntax::Unchecked);
    UnstructuredParse checked = parseUnstructured(raw, RawSyntax::Checked);
    EXPECT_EQ(checked.error, full.error) << raw.value_or("<empty Raw>");
    EXPECT_EQ(checked.object, full.object) << raw.value_or("<empty Raw>");
  }
  EXPECT_EQ(parseUnstructured(std::nullopt, RawSyntax::Checked).error,
            "unexpected end of JSON input");
}

TEST(ObjectParseTest, NullElementIsUnexpectedEndOfInput) {
  auto v = judgeElement("null");
  EXPECT_EQ(v.stage, ModelStage::ObjectParse);
  EXPECT_EQ(v.message, "unexpected end of JSON input");  // returned bare, no prefix
  EXPECT_EQ(v.index, 0u);
}

TEST(ObjectParseTest, NonObjectElementsAreUnmarshalTypeErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"[1]", "array"}, {"\"x\"", "string"}, {"5", "number"}, {"true", "bool"}};
  for (const auto& [element, what] : cases) {
    auto v = judgeElement(element);
    EXPECT_EQ(v.stage, ModelStage::ObjectParse) << element;
    EXPECT_EQ(v.message, std::string("json: cannot unmarshal ") + what +
                             " into Go value of type map[string]interface {}");
  }
}

TEST(ObjectParseTest, MissingKindQuotesTheRawObject) {
  const std::string raw =
      R"({ "apiVersion": "stable.example.com/v2", "metadata": {"name":"foo-1"} })";
  auto v = judgeElement(raw);
  EXPECT_EQ(v.stage, ModelStage::ObjectParse);
  EXPECT_EQ(v.message, "Object 'Kind' is missing in '" + raw + "'");
}

TEST(ObjectParseTest, NonStringKindCountsAsMissing) {
  const std::string raw = R"({"apiVersion":"stable.example.com/v2","kind":5})";
  EXPECT_EQ(judgeElement(raw).message, "Object 'Kind' is missing in '" + raw + "'");
}

TEST(ObjectParseTest, UnparsableApiVersionLosesTheKindToo) {
  const std::string raw = R"({"apiVersion":"a/b/c","kind":"Foo"})";
  EXPECT_EQ(judgeElement(raw).message, "Object 'Kind' is missing in '" + raw + "'");
}

TEST(ObjectParseTest, NumberBeyondFloat64IsAnError) {
  json object = converted(fooObject());
  std::string raw = object.dump();
  raw.insert(raw.size() - 1, ",\"big\":1e400");
  auto v = judgeElement(raw);
  EXPECT_EQ(v.stage, ModelStage::ObjectParse);
  EXPECT_EQ(v.message, "json: cannot unmarshal number 1e400 into Go value of type float64");
}

TEST(ObjectApiVersionTest, MustBeTheDesiredGroupVersion) {
  json object = fooObject();  // still at v1
  auto v = judgeObject(object);
  EXPECT_EQ(v.stage, ModelStage::ApiVersion);
  EXPECT_EQ(v.message, kG + "returned invalid object at index 0: invalid groupVersion (expected "
                            "stable.example.com/v2, received stable.example.com/v1)");
  EXPECT_EQ(v.index, 0u);
}

TEST(ObjectApiVersionTest, CoreGroupPrintsOnlyTheVersion) {
  json object = converted(fooObject());
  object["apiVersion"] = "v2";
  EXPECT_EQ(judgeObject(object).message,
            kG + "returned invalid object at index 0: invalid groupVersion (expected "
                 "stable.example.com/v2, received v2)");
}

TEST(ObjectApiVersionTest, NonStringApiVersionReadsAsEmpty) {
  json object = converted(fooObject());
  object["apiVersion"] = 2;
  // GetAPIVersion() is "", which parses to the empty GroupVersion, so the kind stays readable.
  EXPECT_EQ(judgeObject(object).message,
            kG + "returned invalid object at index 0: invalid groupVersion (expected "
                 "stable.example.com/v2, received )");
}

TEST(ObjectKindTest, KindMustBeUnchanged) {
  json object = converted(fooObject());
  object["kind"] = "Bar";
  auto v = judgeObject(object);
  EXPECT_EQ(v.stage, ModelStage::Kind);
  EXPECT_EQ(v.message,
            kG + "returned invalid object at index 0: invalid kind (expected Foo, received Bar)");
}

TEST(ObjectKindTest, KindIsCaseSensitive) {
  json object = converted(fooObject());
  object["kind"] = "foo";
  EXPECT_EQ(judgeObject(object).stage, ModelStage::Kind);
}

TEST(ObjectIdentityTest, NameMustBeUnchanged) {
  json object = converted(fooObject());
  object["metadata"]["name"] = "foo-2";
  auto v = judgeObject(object);
  EXPECT_EQ(v.stage, ModelStage::Identity);
  EXPECT_EQ(v.message, kG + "returned invalid object: must have the same name: foo-1 != foo-2");
}

TEST(ObjectIdentityTest, NamespaceMustBeUnchanged) {
  json object = converted(fooObject());
  object["metadata"].erase("namespace");
  EXPECT_EQ(judgeObject(object).message,
            kG + "returned invalid object: must have the same namespace: default != ");
}

TEST(ObjectIdentityTest, UidMustBeUnchanged) {
  json object = converted(fooObject());
  object["metadata"]["uid"] = "42";
  EXPECT_EQ(judgeObject(object).message,
            kG + "returned invalid object: must have the same UID: uid-foo-1 != 42");
}

TEST(ObjectIdentityTest, NonStringNameCountsAsEmpty) {
  json object = converted(fooObject());
  object["metadata"]["name"] = 5;
  EXPECT_EQ(judgeObject(object).message,
            kG + "returned invalid object: must have the same name: foo-1 != ");
}

TEST(ObjectIdentityTest, MissingMetadataFailsTheNameCheckFirst) {
  json object = converted(fooObject());
  object.erase("metadata");
  EXPECT_EQ(judgeObject(object).message,
            kG + "returned invalid object: must have the same name: foo-1 != ");
}

TEST(ObjectMetadataShapeTest, MissingMetadataWhenTheOriginalHasNoIdentity) {
  json original = fooObject();
  original["metadata"] = json::object();
  json object = converted(original);
  object.erase("metadata");
  auto v = judgeObject(object, original);
  EXPECT_EQ(v.stage, ModelStage::Metadata);
  EXPECT_EQ(v.message, kG + "returned invalid metadata: missing metadata in converted object");
}

TEST(ObjectMetadataShapeTest, NonObjectMetadataIsRejectedWithItsGoType) {
  json original = fooObject();
  original["metadata"] = json::object();
  for (const auto& [value, type] :
       std::vector<std::pair<json, std::string>>{{json("x"), "string"},
                                                 {json(nullptr), "<nil>"},
                                                 {json::array(), "[]interface {}"},
                                                 {json(3), "int64"},
                                                 {json(1.5), "float64"},
                                                 {json(true), "bool"}}) {
    json object = converted(original);
    object["metadata"] = value;
    EXPECT_EQ(judgeObject(object, original).message,
              kG + "returned invalid metadata: invalid metadata of type " + type +
                  " in converted object");
  }
}

TEST(ObjectMetadataShapeTest, OriginalWithoutMetadataGetsAnEmptyOne) {
  json original = fooObject();
  original.erase("metadata");
  json object = converted(original);
  object["metadata"] = {{"labels", {{"a", "b"}}}};
  auto v = judgeObject(object, original);
  EXPECT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(v.visible[0]["metadata"]["labels"], json({{"a", "b"}}));
}

TEST(ObjectAcceptanceTest, StatusAndOtherTopLevelFieldsComeFromTheWebhook) {
  json object = converted(fooObject());
  object["status"] = {{"phase", "Ready"}};
  object["spec"] = {{"host", "localhost"}, {"port", "8080"}};
  auto v = judgeObject(object);
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(v.visible[0]["status"]["phase"], "Ready");
  EXPECT_EQ(v.visible[0]["spec"], json({{"host", "localhost"}, {"port", "8080"}}));
}

}  // namespace
}  // namespace convcheck
