// client-go's handling of the HTTP status (reference §2.1): 200-206 decode the body, anything else
// becomes errors.NewGenericServerResponse's message, or the message of a Status body.
#include <gtest/gtest.h>

#include "kube/apiserver/apiserver_model.h"
#include "kube/apiserver/media_type.h"
#include "kube/apiserver/status_messages.h"
#include "tests/kube/apiserver/model_test_support.h"

namespace convcheck {
namespace {

using nlohmann::json;
using namespace modeltest;

const std::string kFailed = "conversion webhook for stable.example.com/v1, Kind=Foo failed: ";

ModelVerdict judgeHttp(long status, const std::string& body, const std::string& contentType) {
  auto sent = sentReview(ReviewVersion::V1, {fooObject()});
  return judgeConversion(sent, answer(body, status, contentType), nullptr);
}

TEST(HttpStatusTest, EveryStatusFrom200To206DecodesTheBody) {
  auto sent = sentReview(ReviewVersion::V1, {fooObject()});
  json body = responseEnvelope(sent, {converted(sent.objects[0])});
  for (long code = 200; code <= 206; ++code) {
    auto v = judgeConversion(sent, answer(body, code), nullptr);
    EXPECT_EQ(v.stage, ModelStage::Accepted) << code << ": " << v.message;
  }
}

TEST(HttpStatusTest, StatusesJustOutsideTheRangeAreErrors) {
  auto sent = sentReview(ReviewVersion::V1, {fooObject()});
  json body = responseEnvelope(sent, {converted(sent.objects[0])});
  for (long code : {199L, 207L, 226L, 300L, 304L}) {
    auto v = judgeConversion(sent, answer(body, code), nullptr);
    EXPECT_EQ(v.stage, ModelStage::HttpStatus) << code;
    EXPECT_EQ(v.message, kFailed + "the server responded with the status code " +
                             std::to_string(code) + " but did not return more information");
  }
}

struct CodeCase {
  long code;
  const char* message;
};

TEST(HttpStatusTest, KnownCodesHaveClientGoMessages) {
  const CodeCase cases[] = {
      {400, "the server rejected our request for an unknown reason"},
      {401, "the server has asked for the client to provide credentials"},
      {404, "the server could not find the requested resource"},
      {405, "the server does not allow this method on the requested resource"},
      {409, "the server reported a conflict"},
      {422, "the server rejected our request due to an error in our request"},
      {429, "the server has received too many requests and has asked us to try again later"},
      {503, "the server is currently unable to handle the request"},
      {504,
       "the server was unable to return a response in the time allotted, but may still be "
       "processing the request"},
      {418, "the server responded with the status code 418 but did not return more information"},
  };
  for (const auto& c : cases) {
    auto v = judgeHttp(c.code, "Cannot handle v1 ConversionReview", "text/plain");
    EXPECT_EQ(v.stage, ModelStage::HttpStatus) << c.code;
    EXPECT_EQ(v.message, kFailed + c.message) << c.code;
  }
}

TEST(HttpStatusTest, ServerErrorQuotesATextBody) {
  auto v = judgeHttp(500, "  panic: runtime error\n", "text/plain; charset=utf-8");
  EXPECT_EQ(v.message, kFailed +
                           "an error on the server (\"panic: runtime error\") has prevented "
                           "the request from succeeding");
  v = judgeHttp(502, "say \"hi\"\tnow", "text/html");
  EXPECT_EQ(v.message, kFailed +
                           "an error on the server (\"say \\\"hi\\\"\\tnow\") has prevented "
                           "the request from succeeding");
}

TEST(HttpStatusTest, ServerErrorWithoutContentTypeCountsAsText) {
  auto v = judgeHttp(500, "boom", "");
  EXPECT_EQ(
      v.message,
      kFailed + "an error on the server (\"boom\") has prevented the request from succeeding");
}

TEST(HttpStatusTest, ServerErrorWithANonTextContentTypeSaysUnknown) {
  auto v = judgeHttp(500, "{\"error\":\"boom\"}", "application/json");
  EXPECT_EQ(v.message, kFailed +
                           "an error on the server (\"unknown\") has prevented the request "
                           "from succeeding");
}

TEST(HttpStatusTest, ServerMessageIsCappedAt2048BytesThenTrimmed) {
  std::string body = "  " + std::string(3000, 'x');
  auto v = judgeHttp(500, body, "text/plain");
  EXPECT_EQ(v.message, kFailed + "an error on the server (\"" + std::string(2046, 'x') +
                           "\") has prevented the request from succeeding");
}

TEST(HttpStatusTest, ForbiddenAndUnsupportedMediaTypeUseTheServerMessage) {
  EXPECT_EQ(judgeHttp(403, " denied by policy \n", "text/plain").message,
            kFailed + "denied by policy");
  EXPECT_EQ(judgeHttp(415, "bad type", "application/json").message, kFailed + "unknown");
}

TEST(HttpStatusTest, NotAcceptableFallsBackToItsOwnMessage) {
  EXPECT_EQ(judgeHttp(406, "x", "application/json").message,
            kFailed +
                "the server was unable to respond with a content type that the client "
                "supports");
  EXPECT_EQ(judgeHttp(406, "only yaml", "text/plain").message, kFailed + "only yaml");
}

TEST(HttpStatusTest, StatusFailureBodyReplacesTheGenericMessage) {
  const std::string status =
      R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"custom failure"})";
  for (long code : {400L, 422L, 500L, 503L}) {
    auto v = judgeHttp(code, status, "application/json");
    EXPECT_EQ(v.stage, ModelStage::HttpStatus);
    EXPECT_EQ(v.message, kFailed + "custom failure") << code;
  }
}

TEST(HttpStatusTest, StatusBodyApiVersionDefaultsToV1) {
  auto v = judgeHttp(500, R"({"kind":"Status","status":"Failure","message":"no version"})",
                     "application/json");
  EXPECT_EQ(v.message, kFailed + "no version");
}

TEST(HttpStatusTest, StatusBodyThatIsNotFailureKeepsTheGenericMessage) {
  auto v = judgeHttp(404, R"({"kind":"Status","apiVersion":"v1","status":"Success","message":"x"})",
                     "application/json");
  EXPECT_EQ(v.message, kFailed + "the server could not find the requested resource");
  v = judgeHttp(404, R"({"apiVersion":"v1","status":"Failure","message":"x"})", "application/json");
  EXPECT_EQ(v.message, kFailed + "the server could not find the requested resource");
}

TEST(HttpStatusTest, StatusBodyWithWrongFieldTypesKeepsTheGenericMessage) {
  auto v = judgeHttp(500, R"({"kind":"Status","status":"Failure","message":"x","code":"500"})",
                     "text/plain");
  EXPECT_EQ(v.message, kFailed +
                           "an error on the server (\"{\\\"kind\\\":\\\"Status\\\","
                           "\\\"status\\\":\\\"Failure\\\",\\\"message\\\":\\\"x\\\","
                           "\\\"code\\\":\\\"500\\\"}\") has prevented the request from "
                           "succeeding");
}

TEST(HttpStatusTest, EmptyErrorBodyGivesTheGenericMessage) {
  EXPECT_EQ(judgeHttp(503, "", "").message,
            kFailed + "the server is currently unable to handle the request");
}

TEST(StatusMessagesTest, TextResponseRuleFollowsTheRawHeader) {
  EXPECT_EQ(unstructuredServerMessage(" hi ", ""), "hi");
  EXPECT_EQ(unstructuredServerMessage(" hi ", "TEXT/Plain"), "hi");
  EXPECT_EQ(unstructuredServerMessage(" hi ", "application/json"), "unknown");
  EXPECT_EQ(unstructuredServerMessage(" hi ", "text/"), "unknown");  // does not parse
}

TEST(MediaTypeTest, ParsesLikeGoMime) {
  EXPECT_EQ(parseMediaType("Application/JSON; charset=UTF-8").mediaType, "application/json");
  EXPECT_EQ(parseMediaType("text").mediaType, "text");
  EXPECT_EQ(parseMediaType("text/plain;").error, "");
  EXPECT_EQ(parseMediaType("").error, "mime: no media type");
  EXPECT_EQ(parseMediaType("a b").error, "mime: expected slash after first token");
  EXPECT_EQ(parseMediaType("text/plain x").error, "mime: unexpected content after media subtype");
  EXPECT_EQ(parseMediaType("text/plain; a=1; a=2").error, "mime: duplicate parameter name");
  EXPECT_EQ(parseMediaType("text/plain; a=1; a=1").error, "");
  EXPECT_EQ(parseMediaType("text/plain; q=\"a b\"").error, "");
}

}  // namespace
}  // namespace convcheck
