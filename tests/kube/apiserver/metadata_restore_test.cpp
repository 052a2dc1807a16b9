// restoreObjectMeta (reference §2.6): labels/annotations from the webhook, validated when changed;
// everything else in metadata silently restored from the original.
#include <functional>
#include <map>

#include <gtest/gtest.h>

#include "kube/apiserver/apiserver_model.h"
#include "tests/kube/apiserver/model_test_support.h"

namespace convcheck {
namespace {

using nlohmann::json;
using namespace modeltest;

const std::string kInvalidMeta =
    "conversion webhook for stable.example.com/v1, Kind=Foo returned invalid metadata: ";
const std::string kKeyRegex =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const std::string kValueRegex =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

ModelVerdict judgeWithMetadata(const std::function<void(json& metadata)>& edit,
                               json original = fooObject(),
                               ReviewVersion version = ReviewVersion::V1) {
  auto sent = sentReview(version, {original});
  json object = converted(original);
  edit(object["metadata"]);
  return judgeConversion(sent, answer(responseEnvelope(sent, {object})), nullptr);
}

TEST(MetadataTypesTest, NonStringLabelValuesAreRejectedWithTheirGoType) {
  for (const auto& [value, type] :
       std::vector<std::pair<json, std::string>>{{json(7), "int64"},
                                                 {json(7.5), "float64"},
                                                 {json(true), "bool"},
                                                 {json(nullptr), "<nil>"},
                                                 {json::object(), "map[string]interface {}"}}) {
    const json& labelValue = value;  // clang 14 cannot capture a structured binding
    auto v = judgeWithMetadata([&](json& m) { m["labels"]["app"] = labelValue; });
    EXPECT_EQ(v.stage, ModelStage::Metadata);
    EXPECT_EQ(v.message, kInvalidMeta + "metadata.labels[app] must be a string, but is " + type +
                             " in converted object");
  }
}

TEST(MetadataTypesTest, NonStringAnnotationValuesAreRejected) {
  auto v = judgeWithMetadata([](json& m) { m["annotations"]["example.com/note"] = 1; });
  EXPECT_EQ(v.message, kInvalidMeta +
                           "metadata.annotations[example.com/note] must be a string, "
                           "but is int64 in converted object");
}

TEST(MetadataTypesTest, NonMapLabelsAreRejected) {
  auto v = judgeWithMetadata([](json& m) { m["labels"] = json::array({"a"}); });
  EXPECT_EQ(v.message,
            kInvalidMeta + "invalid metadata.labels of type []interface {} in converted object");
  v = judgeWithMetadata([](json& m) { m["annotations"] = "a=b"; });
  EXPECT_EQ(v.message,
            kInvalidMeta + "invalid metadata.annotations of type string in converted object");
}

TEST(MetadataTypesTest, NonMapLabelsInTheOriginalAreRejected) {
  json original = fooObject();
  original["metadata"]["labels"] = "broken";
  auto v = judgeWithMetadata([](json& m) { m["labels"] = {{"a", "b"}}; }, original);
  EXPECT_EQ(v.message, kInvalidMeta + "invalid metadata.labels of type string in original object");
}

TEST(LabelValidationInModelTest, InvalidLabelKeyIsRejected) {
  auto v = judgeWithMetadata([](json& m) { m["labels"]["bad key"] = "x"; });
  EXPECT_EQ(v.stage, ModelStage::Metadata);
  EXPECT_EQ(v.message,
            kInvalidMeta + "metadata.labels: Invalid value: \"bad key\": name part " + kKeyRegex);
}

TEST(LabelValidationInModelTest, InvalidLabelValueIsRejected) {
  auto v = judgeWithMetadata([](json& m) { m["labels"]["app"] = "üäö"; });
  EXPECT_EQ(v.message, kInvalidMeta + "metadata.labels: Invalid value: \"üäö\": " + kValueRegex);
}

TEST(LabelValidationInModelTest, TooLongLabelValueIsRejected) {
  const std::string value(64, 'a');
  auto v = judgeWithMetadata([&](json& m) { m["labels"]["app"] = value; });
  EXPECT_EQ(v.message, kInvalidMeta + "metadata.labels: Invalid value: \"" + value +
                           "\": must be no more than 63 bytes");
}

TEST(LabelValidationInModelTest, SeveralErrorsAreAggregatedInBrackets) {
  auto v = judgeWithMetadata([](json& m) { m["labels"] = {{"-a", "x"}, {"b", "-"}}; });
  EXPECT_EQ(v.message, kInvalidMeta + "[metadata.labels: Invalid value: \"-a\": name part " +
                           kKeyRegex + ", metadata.labels: Invalid value: \"-\": " + kValueRegex +
                           "]");
}

TEST(LabelValidationInModelTest, KeyWithTwoSlashesIsNotAQualifiedName) {
  auto v = judgeWithMetadata([](json& m) { m["labels"]["a/b/c"] = "x"; });
  EXPECT_EQ(v.message, kInvalidMeta +
                           "metadata.labels: Invalid value: \"a/b/c\": a valid label "
                           "key " +
                           kKeyRegex +
                           " with an optional DNS subdomain prefix and '/' (e.g. "
                           "'example.com/MyName')");
}

TEST(LabelValidationInModelTest, PrefixMustBeALowercaseSubdomain) {
  auto v = judgeWithMetadata([](json& m) { m["labels"]["Example.com/app"] = "x"; });
  EXPECT_EQ(v.message,
            kInvalidMeta +
                "metadata.labels: Invalid value: \"Example.com/app\": prefix part a lowercase RFC "
                "1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                "and must start and end with an alphanumeric character (e.g. 'example.com', regex "
                "used for validation is "
                "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
}

TEST(LabelValidationInModelTest, UnchangedLabelsAreNotValidated) {
  json original = fooObject();
  original["metadata"]["labels"]["bad key"] = "üäö";
  auto v = judgeWithMetadata([](json&) {}, original);
  EXPECT_EQ(v.stage, ModelStage::Accepted) << v.message;
}

TEST(AnnotationValidationInModelTest, TooLargeAnnotationsAreRejectedWithTheSingularPath) {
  auto v = judgeWithMetadata(
      [](json& m) { m["annotations"]["example.com/stash"] = std::string(262144, 'x'); });
  EXPECT_EQ(v.stage, ModelStage::Metadata);
  EXPECT_EQ(v.message,
            kInvalidMeta + "metadata.annotation: Too long: may not be more than 262144 bytes");
}

TEST(AnnotationValidationInModelTest, KeysAreCheckedLowerCasedButShownAsGiven) {
  auto ok = judgeWithMetadata([](json& m) { m["annotations"]["Example.COM/Note"] = "x"; });
  EXPECT_EQ(ok.stage, ModelStage::Accepted) << ok.message;
  auto v = judgeWithMetadata([](json& m) { m["annotations"]["Bad Key"] = "x"; });
  EXPECT_EQ(
      v.message,
      kInvalidMeta + "metadata.annotation: Invalid value: \"Bad Key\": name part " + kKeyRegex);
}

TEST(AnnotationValidationInModelTest, AnnotationValuesAreFreeText) {
  auto v = judgeWithMetadata([](json& m) { m["annotations"]["note"] = "any text: üäö / \n"; });
  EXPECT_EQ(v.stage, ModelStage::Accepted) << v.message;
}

TEST(LabelsRestoreTest, MissingLabelsDeleteThem) {
  auto v = judgeWithMetadata([](json& m) { m.erase("labels"); });
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_FALSE(v.visible[0]["metadata"].contains("labels"));
  EXPECT_TRUE(v.visible[0]["metadata"].contains("annotations"));
}

TEST(LabelsRestoreTest, NullAnnotationsDeleteThem) {
  auto v = judgeWithMetadata([](json& m) { m["annotations"] = nullptr; });
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_FALSE(v.visible[0]["metadata"].contains("annotations"));
}

TEST(LabelsRestoreTest, ChangedLabelsReplaceTheOriginalOnes) {
  auto v = judgeWithMetadata([](json& m) { m["labels"] = {{"tier", "web"}}; });
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(v.visible[0]["metadata"]["labels"], json({{"tier", "web"}}));
  for (const auto& s : v.silent) EXPECT_NE(s.path, "metadata.labels");
}

TEST(LabelsRestoreTest, EmptyLabelsMapIsOmittedFromWhatAClientSees) {
  auto v = judgeWithMetadata([](json& m) { m["labels"] = json::object(); });
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_FALSE(v.visible[0]["metadata"].contains("labels"));
}

TEST(SilentRevertTest, OtherMetadataChangesAreRevertedAndReported) {
  auto v = judgeWithMetadata([](json& m) {
    m["finalizers"] = {"foo"};
    m["generation"] = 42;
    m["resourceVersion"] = "42";
    m["ownerReferences"] = {{{"apiVersion", "v1"}, {"kind", "Pod"}, {"name", "p"}, {"uid", "1"}}};
    m["garbage"] = "x";
  });
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  const json& meta = v.visible[0]["metadata"];
  EXPECT_EQ(meta["finalizers"], json({"example.com/cleanup"}));
  EXPECT_EQ(meta["generation"], 1);
  EXPECT_FALSE(meta.contains("resourceVersion"));
  EXPECT_FALSE(meta.contains("ownerReferences"));
  EXPECT_FALSE(meta.contains("garbage"));
  std::map<std::string, json> reverted;
  for (const auto& s : v.silent) {
    EXPECT_EQ(s.what, "reverted");
    EXPECT_EQ(s.index, 0u);
    reverted[s.path] = s.value;
  }
  EXPECT_EQ(reverted.size(), 5u);
  EXPECT_EQ(reverted["metadata.finalizers"], json({"foo"}));
  EXPECT_EQ(reverted["metadata.generation"], 42);
  EXPECT_EQ(reverted["metadata.resourceVersion"], "42");
  EXPECT_EQ(reverted["metadata.garbage"], "x");
  EXPECT_TRUE(reverted.count("metadata.ownerReferences"));
}

TEST(SilentRevertTest, RemovedMetadataFieldsAreRevertedWithANullValue) {
  auto v = judgeWithMetadata([](json& m) { m.erase("creationTimestamp"); });
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  ASSERT_EQ(v.silent.size(), 1u);
  EXPECT_EQ(v.silent[0].path, "metadata.creationTimestamp");
  EXPECT_TRUE(v.silent[0].value.is_null());
  EXPECT_EQ(v.visible[0]["metadata"]["creationTimestamp"], "2024-05-01T10:00:00Z");
}

TEST(SilentRevertTest, SameNumberWrittenAsFloatIsNotAChange) {
  auto v = judgeWithMetadata([](json& m) { m["generation"] = 1.0; });
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_TRUE(v.silent.empty());
}

TEST(SilentRevertTest, AnUntouchedObjectHasNoSilentChanges) {
  auto v = judgeWithMetadata([](json&) {});
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_TRUE(v.silent.empty());
}

TEST(ObjectMetaRoundTripTest, UnknownRootMetadataKeysOfTheOriginalDisappear) {
  json original = fooObject();
  original["metadata"]["garbage"] = "x";
  original["metadata"]["generateName"] = "";
  auto v = judgeWithMetadata([](json&) {}, original);
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_FALSE(v.visible[0]["metadata"].contains("garbage"));
  EXPECT_FALSE(v.visible[0]["metadata"].contains("generateName"));
  EXPECT_EQ(v.visible[0]["metadata"]["name"], "foo-1");
}

TEST(ObjectMetaRoundTripTest, TimestampsAreNormalisedToUtcSeconds) {
  json original = fooObject();
  original["metadata"]["creationTimestamp"] = "2024-05-01T12:30:00.123+02:00";
  auto v = judgeWithMetadata([](json&) {}, original);
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(v.visible[0]["metadata"]["creationTimestamp"], "2024-05-01T10:30:00Z");
}

TEST(ObjectMetaRoundTripTest, AbsentCreationTimestampBecomesNull) {
  json original = fooObject();
  original["metadata"].erase("creationTimestamp");
  auto v = judgeWithMetadata([](json&) {}, original);
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  ASSERT_TRUE(v.visible[0]["metadata"].contains("creationTimestamp"));
  EXPECT_TRUE(v.visible[0]["metadata"]["creationTimestamp"].is_null());
}

TEST(ObjectMetaRoundTripTest, V1beta1RestoresTheSameWay) {
  auto v = judgeWithMetadata([](json& m) { m["finalizers"] = json::array(); }, fooObject(),
                             ReviewVersion::V1beta1);
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_EQ(v.visible[0]["metadata"]["finalizers"], json({"example.com/cleanup"}));
  ASSERT_EQ(v.silent.size(), 1u);
  EXPECT_EQ(v.silent[0].path, "metadata.finalizers");
}

}  // namespace
}  // namespace convcheck
