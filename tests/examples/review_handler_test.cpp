// ConversionReview handling without a socket: envelope version, uid, order, failures, HTTP codes.
#include "examples/webhook/review_handler.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace convcheck::example {
namespace {

using nlohmann::json;

json cronTab(const std::string& version, const std::string& name) {
  json spec = version == "v1" ? json{{"host", "h"}, {"port", "80"}} : json{{"hostPort", "h:80"}};
  return {{"apiVersion", "stable.example.com/" + version},
          {"kind", "CronTab"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", spec}};
}

json widget(const std::string& version, const std::string& name) {
  json spec = version == "v1alpha1" ? json{{"color", "red"}} : json{{"colour", "red"}};
  return {{"apiVersion", "example.convcheck.dev/" + version},
          {"kind", "Widget"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", spec}};
}

std::string review(const std::string& reviewVersion, const std::string& desired, json objects,
                   const std::string& uid = "0b5f8a4e-1111-4222-8333-444455556666") {
  return json{
      {"kind", "ConversionReview"},
      {"apiVersion", "apiextensions.k8s.io/" + reviewVersion},
      {"request", {{"uid", uid}, {"desiredAPIVersion", desired}, {"objects", objects}}},
      {"response", {{"uid", ""}, {"convertedObjects", nullptr}, {"result", json::object()}}}}
      .dump();
}

json answer(const HttpReply& reply) {
  EXPECT_EQ(reply.status, 200) << reply.body;
  return json::parse(reply.body);
}

TEST(ReviewHandler, AnswersAV1ReviewInV1WithTheUidEchoedAndSuccess) {
  auto reply = handleConversionReview(
      "application/json",
      review("v1", "stable.example.com/v1", json::array({cronTab("v1beta1", "a")})), {});
  json out = answer(reply);
  EXPECT_EQ(reply.contentType, "application/json");
  EXPECT_EQ(out["apiVersion"], "apiextensions.k8s.io/v1");
  EXPECT_EQ(out["kind"], "ConversionReview");
  EXPECT_EQ(out["response"]["uid"], "0b5f8a4e-1111-4222-8333-444455556666");
  EXPECT_EQ(out["response"]["result"], json({{"status", "Success"}}));
  ASSERT_EQ(out["response"]["convertedObjects"].size(), 1u);
  EXPECT_EQ(out["response"]["convertedObjects"][0], cronTab("v1", "a"));
  EXPECT_EQ(reply.delay.count(), 0);
}

TEST(ReviewHandler, AnswersAV1beta1ReviewInV1beta1) {
  json out = answer(handleConversionReview(
      "application/json",
      review("v1beta1", "stable.example.com/v1beta1", json::array({cronTab("v1", "a")}), "u-9"),
      {}));
  EXPECT_EQ(out["apiVersion"], "apiextensions.k8s.io/v1beta1");
  EXPECT_EQ(out["response"]["uid"], "u-9");
  EXPECT_EQ(out["response"]["convertedObjects"][0], cronTab("v1beta1", "a"));
}

TEST(ReviewHandler, ConvertsABatchOfMixedSourceVersionsInOrder) {
  json objects = json::array({widget("v1alpha1", "first"), widget("v1", "second"),
                              widget("v1alpha1", "third"), widget("v1", "fourth")});
  json out = answer(handleConversionReview(
      "application/json", review("v1", "example.convcheck.dev/v1beta1", objects), {}));
  const json& converted = out["response"]["convertedObjects"];
  ASSERT_EQ(converted.size(), 4u);
  const char* names[] = {"first", "second", "third", "fourth"};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(converted[i]["metadata"]["name"], names[i]);
    EXPECT_EQ(converted[i], widget("v1beta1", names[i]));
  }
}

TEST(ReviewHandler, RefusesAnObjectAlreadyInTheDesiredVersionWithAFailureResult) {
  auto reply =
      handleConversionReview("application/json",
                             review("v1", "stable.example.com/v1",
                                    json::array({cronTab("v1beta1", "a"), cronTab("v1", "b")})),
                             {});
  json out = answer(reply);
  EXPECT_EQ(out["response"]["result"]["status"], "Failure");
  const std::string message = out["response"]["result"]["message"];
  EXPECT_NE(message.find("object[1] (default/b)"), std::string::npos) << message;
  EXPECT_NE(message.find("should not call the webhook"), std::string::npos) << message;
  EXPECT_FALSE(out["response"].contains("convertedObjects"));
  EXPECT_EQ(out["response"]["uid"], "0b5f8a4e-1111-4222-8333-444455556666");
}

TEST(ReviewHandler, ConversionErrorGivesFailureNamingTheObjectAndField) {
  json bad = cronTab("v1beta1", "bad");
  bad["spec"]["hostPort"] = "no-port";
  json out = answer(handleConversionReview(
      "application/json", review("v1", "stable.example.com/v1", json::array({bad})), {}));
  EXPECT_EQ(out["response"]["result"]["status"], "Failure");
  const std::string message = out["response"]["result"]["message"];
  EXPECT_NE(message.find("object[0] (default/bad)"), std::string::npos) << message;
  EXPECT_NE(message.find("spec.hostPort"), std::string::npos) << message;
}

TEST(ReviewHandler, AcceptsAJsonContentTypeWithParameters) {
  auto reply = handleConversionReview(
      "application/json; charset=utf-8",
      review("v1", "stable.example.com/v1", json::array({cronTab("v1beta1", "a")})), {});
  EXPECT_EQ(reply.status, 200);
}

TEST(ReviewHandler, RejectsANonJsonContentTypeWith415) {
  auto reply = handleConversionReview("application/yaml",
                                      review("v1", "stable.example.com/v1", json::array()), {});
  EXPECT_EQ(reply.status, 415);
}

TEST(ReviewHandler, RejectsABodyThatIsNotJsonWith400) {
  auto reply = handleConversionReview("application/json", "{\"kind\":", {});
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(reply.body.find("not JSON"), std::string::npos) << reply.body;
}

TEST(ReviewHandler, RejectsAnUnknownReviewVersionWith400) {
  json body = json::parse(review("v1", "stable.example.com/v1", json::array()));
  body["apiVersion"] = "apiextensions.k8s.io/v2";
  EXPECT_EQ(handleConversionReview("application/json", body.dump(), {}).status, 400);
}

TEST(ReviewHandler, RejectsAReviewWithoutRequestWith400) {
  json body = {{"apiVersion", "apiextensions.k8s.io/v1"}, {"kind", "ConversionReview"}};
  EXPECT_EQ(handleConversionReview("application/json", body.dump(), {}).status, 400);
}

TEST(ReviewHandler, MissingObjectsGiveAFailureResult) {
  json body = {{"apiVersion", "apiextensions.k8s.io/v1"},
               {"kind", "ConversionReview"},
               {"request", {{"uid", "x"}, {"desiredAPIVersion", "stable.example.com/v1"}}}};
  json out = answer(handleConversionReview("application/json", body.dump(), {}));
  EXPECT_EQ(out["response"]["result"]["status"], "Failure");
  EXPECT_EQ(out["response"]["uid"], "x");
}

TEST(ReviewHandler, DoesNotEchoTheRequest) {
  json out = answer(handleConversionReview(
      "application/json",
      review("v1", "stable.example.com/v1", json::array({cronTab("v1beta1", "a")})), {}));
  EXPECT_FALSE(out.contains("request"));
}

}  // namespace
}  // namespace convcheck::example
