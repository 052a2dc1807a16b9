// The ConversionReview request body, request uids and review version choice.
#include "harness/transport/review_codec.h"

#include <gtest/gtest.h>

#include <set>

namespace convcheck {
namespace {

using nlohmann::json;

// xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx, lowercase hex.
bool isLowercaseV4Uuid(const std::string& uid) {
  if (uid.size() != 36) return false;
  for (std::size_t i = 0; i < uid.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    const char c = uid[i];
    if (dash != (c == '-')) return false;
    if (!dash && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return uid[14] == '4' && std::string("89ab").find(uid[19]) != std::string::npos;
}

SentReview sampleReview() {
  SentReview review;
  review.version = ReviewVersion::V1;
  review.uid = "0f1e2d3c-4b5a-4697-8877-665544332211";
  review.desiredApiVersion = "stable.example.com/v2";
  review.kind = "CronTab";
  review.listKind = "CronTabList";
  review.objects = SharedObjects::own({json::parse(R"({
    "kind": "CronTab", "apiVersion": "stable.example.com/v1",
    "metadata": {"name": "a", "namespace": "default", "uid": "u-1",
                 "annotations": {"z": "1", "a": "<2>"}},
    "spec": {"replicas": 2, "cronSpec": "* * * * */5", "ratio": 0.5}
  })"),
                                       json::parse(R"({"apiVersion":"stable.example.com/v1",
                                           "kind":"CronTab","metadata":{"name":"b"}})")});
  return review;
}

TEST(EncodeReview, ProducesKubeApiserversExactBytes) {
  EXPECT_EQ(
      encodeReview(sampleReview()),
      R"({"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","request":{"uid":"0f1e2d3c-4b5a-4697-8877-665544332211","desiredAPIVersion":"stable.example.com/v2","objects":[)"
      R"({"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"annotations":{"a":"\u003c2\u003e","z":"1"},"name":"a","namespace":"default","uid":"u-1"},"spec":{"cronSpec":"* * * * */5","ratio":0.5,"replicas":2}},)"
      R"({"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"b"}}]},)"
      R"("response":{"uid":"","convertedObjects":null,"result":{"metadata":{}}}})"
      "\n");
}

TEST(EncodeReview, NamesTheV1beta1Envelope) {
  SentReview review = sampleReview();
  review.version = ReviewVersion::V1beta1;
  const std::string body = encodeReview(review);
  EXPECT_EQ(
      body.rfind(
          R"({"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1beta1","request":{)",
          0),
      0u);
}

TEST(EncodeReview, IsValidJsonThatRoundTripsTheObjects) {
  const SentReview review = sampleReview();
  const json parsed = json::parse(encodeReview(review));
  EXPECT_EQ(parsed["request"]["objects"][0], review.objects[0]);
  EXPECT_EQ(parsed["request"]["uid"], review.uid);
  EXPECT_TRUE(parsed["response"]["convertedObjects"].is_null());
}

TEST(NewRequestUid, IsALowercaseVersion4Uuid) {
  std::mt19937_64 random(7);
  for (int i = 0; i < 200; ++i) {
    const std::string uid = newRequestUid(random);
    EXPECT_TRUE(isLowercaseV4Uuid(uid)) << uid;
  }
}

TEST(NewRequestUid, TheFormatCheckRejectsNonV4Uuids) {
  EXPECT_FALSE(isLowercaseV4Uuid("0f1e2d3c-4b5a-1697-8877-665544332211"));  // version 1
  EXPECT_FALSE(isLowercaseV4Uuid("0f1e2d3c-4b5a-4697-c877-665544332211"));  // variant 110x
  EXPECT_FALSE(isLowercaseV4Uuid("0F1E2D3C-4B5A-4697-8877-665544332211"));  // uppercase
}

TEST(NewRequestUid, IsDeterministicBySeedAndFreshPerCall) {
  std::mt19937_64 first(42);
  std::mt19937_64 second(42);
  std::mt19937_64 other(43);
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string uid = newRequestUid(first);
    EXPECT_EQ(uid, newRequestUid(second));
    seen.insert(uid);
  }
  EXPECT_EQ(seen.size(), 100u);
  std::mt19937_64 again(42);
  EXPECT_NE(newRequestUid(other), newRequestUid(again));
}

TEST(ChooseReviewVersion, TakesTheFirstKnownVersionInOrder) {
  using V = std::vector<std::string>;
  EXPECT_EQ(chooseReviewVersion(V{"v1"}), ReviewVersion::V1);
  EXPECT_EQ(chooseReviewVersion(V{"v1beta1"}), ReviewVersion::V1beta1);
  EXPECT_EQ(chooseReviewVersion(V{"v1", "v1beta1"}), ReviewVersion::V1);
  EXPECT_EQ(chooseReviewVersion(V{"v1beta1", "v1"}), ReviewVersion::V1beta1);
  EXPECT_EQ(chooseReviewVersion(V{"v2", "v1beta1", "v1"}), ReviewVersion::V1beta1);
  EXPECT_EQ(chooseReviewVersion(V{"V1", "v1"}), ReviewVersion::V1);
}

TEST(ChooseReviewVersion, IsEmptyWhenNoVersionIsKnown) {
  EXPECT_EQ(chooseReviewVersion({}), std::nullopt);
  EXPECT_EQ(chooseReviewVersion({"v2", "v1alpha1"}), std::nullopt);
}

TEST(ReviewVersionForStrategy, AWebhookCrdChoosesFromItsListAndOneWithoutWebhookGetsV1) {
  EXPECT_EQ(reviewVersionForStrategy("Webhook", {"v1beta1", "v1"}), ReviewVersion::V1beta1);
  EXPECT_EQ(reviewVersionForStrategy("Webhook", {}), std::nullopt);
  EXPECT_EQ(reviewVersionForStrategy("None", {}), ReviewVersion::V1);
  EXPECT_EQ(reviewVersionForStrategy("", {}), ReviewVersion::V1);
}

TEST(EncodedObjectsTest, ABodyWrittenFromKeptTextsIsTheSameBytes) {
  SentReview review = sampleReview();
  const std::string plain = encodeReview(review);
  EncodedObjects texts;
  EXPECT_EQ(encodeReview(review, &texts), plain);
  EXPECT_EQ(texts.size(), 2u);
  texts.keeping = false;
  EXPECT_EQ(encodeReview(review, &texts), plain);
  // The objects alone and reordered, as a case sends them again.
  SentReview second = review;
  second.objects = review.objects.pick({1});
  EXPECT_EQ(encodeReview(second, &texts), encodeReview(second));
  second.objects = review.objects.pick({1, 0});
  EXPECT_EQ(encodeReview(second, &texts), encodeReview(second));
}

TEST(EncodedObjectsTest, OnlyTheKeptObjectsThemselvesAreReusedAndOnlyWhileKeeping) {
  SentReview review = sampleReview();
  EncodedObjects texts;
  texts.keep(review.objects[0], "{\"kept\":1}");
  texts.keeping = false;
  const std::string body = encodeReview(review, &texts);
  EXPECT_NE(body.find("[{\"kept\":1},{\"apiVersion\""), std::string::npos) << body;
  EXPECT_EQ(texts.size(), 1u);  // the second object was encoded, not kept
  // An equal copy of a kept object is another object: encoded, not taken from the texts.
  SentReview copy = review;
  copy.objects = SharedObjects::own(review.objects.copy());
  EXPECT_EQ(encodeReview(copy, &texts), encodeReview(review));
}

}  // namespace
}  // namespace convcheck
