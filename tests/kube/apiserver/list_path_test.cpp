// The list path of webhook_converter.go (reference §2.5) used for batches of more than one object:
// G is the list's GVK and, after the parse step, upstream prints the index already incremented.
#include <gtest/gtest.h>

#include "kube/apiserver/apiserver_model.h"
#include "tests/kube/apiserver/model_test_support.h"

namespace convcheck {
namespace {

using nlohmann::json;
using namespace modeltest;

const std::string kList = "conversion webhook for stable.example.com/v1, Kind=FooList ";

struct ListCase {
  SentReview sent = sentReview(ReviewVersion::V1, {fooObject("foo-1"), fooObject("foo-2")});
  std::vector<json> back = {converted(sent.objects[0]), converted(sent.objects[1])};
  ModelVerdict judge() const {
    return judgeConversion(sent, answer(responseEnvelope(sent, back)), nullptr);
  }
};

TEST(ListPathTest, AcceptsABatchAndKeepsItsOrder) {
  ListCase c;
  auto v = c.judge();
  ASSERT_EQ(v.stage, ModelStage::Accepted) << v.message;
  ASSERT_EQ(v.visible.size(), 2u);
  EXPECT_EQ(v.visible[0]["metadata"]["name"], "foo-1");
  EXPECT_EQ(v.visible[1]["metadata"]["name"], "foo-2");
}

TEST(ListPathTest, MixedSourceVersionsUseTheFirstObjectsVersionInG) {
  ListCase c;
  auto objects = c.sent.objects.copy();
  objects[1]["apiVersion"] = "stable.example.com/v1beta1";
  c.sent.objects = SharedObjects::own(std::move(objects));
  HttpResult http;
  http.url = kUrl;
  http.transportError = "EOF";
  auto v = judgeConversion(c.sent, http, nullptr);
  EXPECT_EQ(v.message, kList + "failed: Post \"" + kUrl + "\": EOF");
  c.back[1] = converted(c.sent.objects[1]);
  EXPECT_EQ(c.judge().stage, ModelStage::Accepted);
}

TEST(ListPathTest, EnvelopeErrorsUseTheListGvk) {
  ListCase c;
  json body = responseEnvelope(c.sent, c.back, "Failure");
  auto v = judgeConversion(c.sent, answer(body), nullptr);
  EXPECT_EQ(v.message, kList + "failed: response.result.status was 'Failure', not 'Success'");
}

TEST(ListPathTest, CountErrorUsesTheListGvk) {
  ListCase c;
  c.back.pop_back();
  auto v = c.judge();
  EXPECT_EQ(v.stage, ModelStage::Count);
  EXPECT_EQ(v.message, kList + "returned 1 objects, expected 2");
}

TEST(ListPathTest, ParseErrorNamesTheZeroBasedIndexAndIsPrefixed) {
  ListCase c;
  c.back[1] = json::array();
  auto v = c.judge();
  EXPECT_EQ(v.stage, ModelStage::ObjectParse);
  EXPECT_EQ(v.message, kList +
                           "returned invalid converted object at index 1: json: cannot "
                           "unmarshal array into Go value of type map[string]interface {}");
  EXPECT_EQ(v.index, 1u);
}

TEST(ListPathTest, ApiVersionErrorPrintsTheIncrementedIndex) {
  ListCase c;
  c.back[1]["apiVersion"] = "stable.example.com/v1";
  auto v = c.judge();
  EXPECT_EQ(v.stage, ModelStage::ApiVersion);
  EXPECT_EQ(v.message, kList +
                           "returned invalid converted object at index 2: invalid "
                           "groupVersion (expected stable.example.com/v2, received "
                           "stable.example.com/v1)");
  EXPECT_EQ(v.index, 1u);
}

TEST(ListPathTest, KindErrorPrintsTheIncrementedIndex) {
  ListCase c;
  c.back[0]["kind"] = "Bar";
  auto v = c.judge();
  EXPECT_EQ(v.stage, ModelStage::Kind);
  EXPECT_EQ(v.message, kList +
                           "returned invalid converted object at index 1: invalid kind "
                           "(expected Foo, received Bar)");
  EXPECT_EQ(v.index, 0u);
}

TEST(ListPathTest, IdentityErrorUsesTheConvertedObjectPrefix) {
  ListCase c;
  c.back[1]["metadata"]["name"] = "x";
  auto v = c.judge();
  EXPECT_EQ(v.stage, ModelStage::Identity);
  EXPECT_EQ(
      v.message,
      kList + "returned invalid converted object at index 2: must have the same name: foo-2 != x");
}

TEST(ListPathTest, SwappedObjectsFailTheIdentityCheck) {
  ListCase c;
  std::swap(c.back[0], c.back[1]);
  EXPECT_EQ(c.judge().message, kList +
                                   "returned invalid converted object at index 1: must have "
                                   "the same name: foo-1 != foo-2");
}

TEST(ListPathTest, MetadataErrorSaysInObjectAtIndex) {
  ListCase c;
  c.back[0]["metadata"]["labels"]["app"] = 7;
  auto v = c.judge();
  EXPECT_EQ(v.stage, ModelStage::Metadata);
  EXPECT_EQ(v.message, kList +
                           "returned invalid metadata in object at index 1: "
                           "metadata.labels[app] must be a string, but is int64 in converted "
                           "object");
}

TEST(ListPathTest, TheFirstFailingObjectStopsTheBatch) {
  ListCase c;
  c.back[0]["kind"] = "Bar";
  c.back[1]["apiVersion"] = "v9";
  EXPECT_EQ(c.judge().stage, ModelStage::Kind);
}

TEST(ListPathTest, ListKindFallsBackToKindPlusList) {
  ListCase c;
  c.sent.listKind.clear();
  c.back.pop_back();
  EXPECT_EQ(c.judge().message, kList + "returned 1 objects, expected 2");
}

}  // namespace
}  // namespace convcheck
