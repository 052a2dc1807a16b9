// webhook_converter.go getConvertedObjectsFromResponse and the decoding before it (reference §1.7,
// §2.2, §2.3): envelope version, response, uid, result.status, count.
#include <gtest/gtest.h>

#include "kube/apiserver/apiserver_model.h"
#include "tests/kube/apiserver/model_test_support.h"

namespace convcheck {
namespace {

using nlohmann::json;
using namespace modeltest;

const std::string kFailed = "conversion webhook for stable.example.com/v1, Kind=Foo failed: ";

class EnvelopeTest : public ::testing::TestWithParam<ReviewVersion> {
 protected:
  SentReview sent = sentReview(GetParam(), {fooObject()});
  json good() const { return responseEnvelope(sent, {converted(sent.objects[0])}); }
  ModelVerdict judge(const json& body) const {
    return judgeConversion(sent, answer(body), nullptr);
  }
  ModelVerdict judgeText(const std::string& body) const {
    return judgeConversion(sent, answer(body), nullptr);
  }
  const char* otherVersion() const {
    return GetParam() == ReviewVersion::V1 ? "apiextensions.k8s.io/v1beta1"
                                           : "apiextensions.k8s.io/v1";
  }
};

INSTANTIATE_TEST_SUITE_P(BothReviewVersions, EnvelopeTest,
                         ::testing::Values(ReviewVersion::V1, ReviewVersion::V1beta1),
                         [](const auto& info) {
                           return info.param == ReviewVersion::V1 ? "v1" : "v1beta1";
                         });

// The verdict says whether the body itself passed Go's syntax check on the way, so that readers
// of the same bytes (the properties' view of the answer) need not check it again.
TEST_P(EnvelopeTest, TheVerdictSaysWhetherTheBodyWasValidJson) {
  EXPECT_TRUE(judge(good()).validJsonBody);
  // Decoded, then refused later: the body was still valid JSON.
  json wrongUid = good();
  wrongUid["response"]["uid"] = "other";
  if (GetParam() == ReviewVersion::V1) {
    EXPECT_FALSE(judge(wrongUid).accepted());
  }
  EXPECT_TRUE(judge(wrongUid).validJsonBody);
  EXPECT_TRUE(judgeText("  " + good().dump() + "\n").validJsonBody);
  EXPECT_FALSE(judgeText(good().dump() + "}").validJsonBody);
  EXPECT_FALSE(judgeText("{\"response\": ").validJsonBody);
  // YAML is decoded through its JSON conversion: the body itself is not JSON.
  EXPECT_FALSE(judgeText("kind: ConversionReview\n").validJsonBody);
  // Stopped before decoding: nothing was checked.
  EXPECT_FALSE(judgeConversion(sent, answer(good(), 500), nullptr).validJsonBody);
  EXPECT_FALSE(judgeConversion(sent, answer(good(), 200, "application/"), nullptr).validJsonBody);
}

TEST_P(EnvelopeTest, AcceptsAWellFormedResponse) {
  auto v = judge(good());
  EXPECT_EQ(v.stage, ModelStage::Accepted) << v.message;
  EXPECT_TRUE(v.message.empty());
  ASSERT_EQ(v.visible.size(), 1u);
  EXPECT_EQ(v.visible[0]["apiVersion"], "stable.example.com/v2");
}

TEST_P(EnvelopeTest, TransportFailureIsPrefixedWithPostAndTheQuotedUrl) {
  HttpResult http;
  http.url = kUrl;
  http.transportError = "dial tcp 127.0.0.1:8443: connect: connection refused";
  http.transportErrorKind = TransportErrorKind::Connect;
  auto v = judgeConversion(sent, http, nullptr);
  EXPECT_EQ(v.stage, ModelStage::Transport);
  EXPECT_EQ(v.message, kFailed +
                           "Post \"https://127.0.0.1:8443/convert?timeout=30s\": dial tcp "
                           "127.0.0.1:8443: connect: connection refused");
}

TEST_P(EnvelopeTest, ResponseInTheOtherReviewVersionIsAnUnknownConversion) {
  json body = good();
  body["apiVersion"] = otherVersion();
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::Decode);
  if (GetParam() == ReviewVersion::V1) {
    EXPECT_EQ(v.message, kFailed +
                             "converting (v1beta1.ConversionReview) to "
                             "(v1.ConversionReview): unknown conversion");
  } else {
    EXPECT_EQ(v.message, kFailed +
                             "converting (v1.ConversionReview) to "
                             "(v1beta1.ConversionReview): unknown conversion");
  }
}

TEST_P(EnvelopeTest, OtherVersionWithoutKindIsStillTheOtherVersion) {
  json body = good();
  body["apiVersion"] = otherVersion();
  body.erase("kind");
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::Decode);
  EXPECT_NE(v.message.find("unknown conversion"), std::string::npos) << v.message;
}

TEST_P(EnvelopeTest, UnregisteredEnvelopeKindIsADecodeError) {
  json body = good();
  body["kind"] = "Foo";
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::Decode);
  const std::string version = GetParam() == ReviewVersion::V1 ? "v1" : "v1beta1";
  EXPECT_EQ(v.message.rfind(kFailed +
                                "no kind \"Foo\" is registered for version "
                                "\"apiextensions.k8s.io/" +
                                version + "\" in scheme \"",
                            0),
            0u)
      << v.message;
}

TEST_P(EnvelopeTest, StatusObjectWithSuccessfulHttpCodeIsAnUnknownConversion) {
  auto v = judge(json{{"kind", "Status"},
                      {"apiVersion", "v1"},
                      {"status", "Failure"},
                      {"message", "custom webhook conversion error"}});
  EXPECT_EQ(v.stage, ModelStage::Decode);
  const std::string version = GetParam() == ReviewVersion::V1 ? "v1" : "v1beta1";
  EXPECT_EQ(v.message, kFailed + "converting (v1.Status) to (" + version +
                           ".ConversionReview): unknown conversion");
}

TEST_P(EnvelopeTest, EnvelopeKindIsReadCaseInsensitivelyToPickTheType) {
  // apimachinery's Interpret uses encoding/json (case-insensitive, last match wins): "KIND" after
  // "kind" makes the decoder look for a kind Foo, although "kind" alone would be fine.
  json body = good();
  body.erase("kind");
  std::string text = body.dump();
  text.insert(1, "\"kind\":\"ConversionReview\",\"KIND\":\"Foo\",");
  auto v = judgeText(text);
  EXPECT_EQ(v.stage, ModelStage::Decode) << v.message;
  EXPECT_NE(v.message.find("no kind \"Foo\" is registered"), std::string::npos) << v.message;
}

TEST_P(EnvelopeTest, ApiVersionWithTwoSlashesFailsToParse) {
  json body = good();
  body["apiVersion"] = "a/b/c";
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::Decode);
  EXPECT_EQ(v.message, kFailed + "unexpected GroupVersion string: a/b/c");
}

TEST_P(EnvelopeTest, ForeignGroupWithoutVersionIsAMissingApiVersion) {
  const std::string body = R"({"apiVersion":"example.com/","kind":"ConversionReview"})";
  auto v = judgeText(body);
  EXPECT_EQ(v.stage, ModelStage::Decode);
  EXPECT_EQ(v.message, kFailed + "Object 'apiVersion' is missing in '" + body + "'");
}

TEST_P(EnvelopeTest, MissingResponseIsRejected) {
  json body = good();
  body.erase("response");
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::NoResponse);
  EXPECT_EQ(v.message, kFailed + "no response provided");
}

TEST_P(EnvelopeTest, NullResponseIsRejected) {
  json body = good();
  body["response"] = nullptr;
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::NoResponse);
  EXPECT_EQ(v.message, kFailed + "no response provided");
}

TEST_P(EnvelopeTest, ResponseKeyIsCaseSensitive) {
  json body = good();
  body["Response"] = body["response"];
  body.erase("response");
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::NoResponse);
}

struct StatusCase {
  const char* status;
  const char* message;
  const char* expected;
};

TEST_P(EnvelopeTest, ResultStatusMustBeExactlySuccess) {
  const StatusCase cases[] = {
      {"", "", "response.result.status was '', not 'Success'"},
      {"Failed", "", "response.result.status was 'Failed', not 'Success'"},
      {"success", "", "response.result.status was 'success', not 'Success'"},
      {"Failure", "", "response.result.status was 'Failure', not 'Success'"},
      {"Failure", "custom webhook conversion error", "custom webhook conversion error"},
      {"Failed", "  spaced message\n", "  spaced message\n"},
  };
  for (const auto& c : cases) {
    json body = good();
    body["response"]["result"] = {{"status", c.status}};
    if (*c.message) body["response"]["result"]["message"] = c.message;
    auto v = judge(body);
    EXPECT_EQ(v.stage, ModelStage::ResultStatus) << c.status;
    EXPECT_EQ(v.message, kFailed + c.expected) << c.status;
  }
}

TEST_P(EnvelopeTest, MissingResultIsAnEmptyStatus) {
  json body = good();
  body["response"].erase("result");
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::ResultStatus);
  EXPECT_EQ(v.message, kFailed + "response.result.status was '', not 'Success'");
}

TEST_P(EnvelopeTest, OtherResultFieldsAreNotPropagated) {
  json body = good();
  body["response"]["result"] = {{"status", "Failure"}, {"reason", "Invalid"}, {"code", 422}};
  auto v = judge(body);
  EXPECT_EQ(v.message, kFailed + "response.result.status was 'Failure', not 'Success'");
}

TEST_P(EnvelopeTest, NullOrMissingConvertedObjectsMeansZeroObjects) {
  for (json objects : {json(nullptr), json::array()}) {
    json body = good();
    body["response"]["convertedObjects"] = objects;
    auto v = judge(body);
    EXPECT_EQ(v.stage, ModelStage::Count);
    EXPECT_EQ(
        v.message,
        "conversion webhook for stable.example.com/v1, Kind=Foo returned 0 objects, expected 1");
  }
  json body = good();
  body["response"].erase("convertedObjects");
  EXPECT_EQ(judge(body).stage, ModelStage::Count);
}

TEST_P(EnvelopeTest, TooManyObjectsFailTheCount) {
  json body = responseEnvelope(sent, {converted(sent.objects[0]), converted(sent.objects[0])});
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::Count);
  EXPECT_EQ(
      v.message,
      "conversion webhook for stable.example.com/v1, Kind=Foo returned 2 objects, expected 1");
}

TEST_P(EnvelopeTest, UnknownEnvelopeFieldsAreIgnored) {
  json body = good();
  body["request"] = {{"uid", ""}, {"desiredAPIVersion", ""}, {"objects", nullptr}};
  body["extra"] = {{"anything", 1}};
  body["response"]["warnings"] = {"w"};
  EXPECT_EQ(judge(body).stage, ModelStage::Accepted);
}

TEST_P(EnvelopeTest, DuplicateKeysLastOneWins) {
  std::string body = good().dump();
  // Put a wrong status first; the real one (later in the text) wins.
  auto pos = body.find("\"result\":{");
  ASSERT_NE(pos, std::string::npos);
  body.insert(pos + std::string("\"result\":{").size(), "\"status\":\"Failure\",");
  EXPECT_EQ(judgeText(body).stage, ModelStage::Accepted);
}

TEST_P(EnvelopeTest, WrongJsonTypeOfAKnownFieldIsADecodeError) {
  json body = good();
  body["response"]["uid"] = 5;
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::Decode);
  EXPECT_EQ(v.message, kFailed +
                           "json: cannot unmarshal number into Go struct field "
                           "ConversionResponse.response.uid of type types.UID");
}

TEST_P(EnvelopeTest, NonIntegerStatusCodeIsADecodeError) {
  json body = good();
  body["response"]["result"]["code"] = 1.5;
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::Decode);
  EXPECT_EQ(v.message, kFailed +
                           "json: cannot unmarshal number 1.5 into Go struct field "
                           "Status.response.result.code of type int32");
}

TEST_P(EnvelopeTest, ConvertedObjectsAsAnObjectIsADecodeError) {
  json body = good();
  body["response"]["convertedObjects"] = json::object();
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::Decode);
  EXPECT_EQ(v.message, kFailed +
                           "json: cannot unmarshal object into Go struct field "
                           "ConversionResponse.response.convertedObjects of type "
                           "[]runtime.RawExtension");
}

TEST_P(EnvelopeTest, ResponseAsAStringIsADecodeError) {
  json body = good();
  body["response"] = "yes";
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::Decode);
  const std::string pkg = GetParam() == ReviewVersion::V1 ? "v1" : "v1beta1";
  EXPECT_EQ(v.message, kFailed +
                           "json: cannot unmarshal string into Go struct field "
                           "ConversionReview.response of type " +
                           pkg + ".ConversionResponse");
}

TEST_P(EnvelopeTest, NullForAStringFieldLeavesItEmpty) {
  json body = good();
  body["response"]["result"]["message"] = nullptr;
  body["response"]["result"]["status"] = nullptr;
  auto v = judge(body);
  EXPECT_EQ(v.message, kFailed + "response.result.status was '', not 'Success'");
}

TEST_P(EnvelopeTest, ResponseContentTypeOfA2xxAnswerIsIgnored) {
  for (const char* ct : {"text/html; charset=utf-8", "application/yaml", "", "foo/bar"}) {
    auto v = judgeConversion(sent, answer(good(), 200, ct), nullptr);
    EXPECT_EQ(v.stage, ModelStage::Accepted) << ct << ": " << v.message;
  }
}

TEST_P(EnvelopeTest, UnparsableContentTypeIsAnInternalError) {
  auto v = judgeConversion(sent, answer(good(), 200, "application/"), nullptr);
  EXPECT_EQ(v.stage, ModelStage::Decode);
  EXPECT_EQ(v.message, kFailed + "Internal error occurred: mime: expected token after slash");
  v = judgeConversion(sent, answer(good(), 200, "application/json; charset"), nullptr);
  EXPECT_EQ(v.message, kFailed + "Internal error occurred: mime: invalid media parameter");
}

TEST_P(EnvelopeTest, EmptyBodyReportsStatusAndContentType) {
  auto v = judgeConversion(sent, answer(std::string(), 200, "application/json"), nullptr);
  EXPECT_EQ(v.stage, ModelStage::EmptyBody);
  EXPECT_EQ(v.message,
            kFailed + "0-length response with status code: 200 and content type: application/json");
  v = judgeConversion(sent, answer(std::string(), 204, ""), nullptr);
  EXPECT_EQ(v.message,
            kFailed + "0-length response with status code: 204 and content type: application/json");
  v = judgeConversion(sent, answer(std::string(), 200, "text/plain; charset=utf-8"), nullptr);
  EXPECT_EQ(v.message, kFailed +
                           "0-length response with status code: 200 and content type: text/plain; "
                           "charset=utf-8");
}

TEST_P(EnvelopeTest, TruncatedJsonIsAParseError) {
  auto v = judgeText("{\"kind\":\"ConversionReview\"");
  EXPECT_EQ(v.stage, ModelStage::Decode);
  EXPECT_EQ(v.message,
            kFailed + "couldn't get version/kind; json parse error: unexpected end of JSON input");
}

TEST_P(EnvelopeTest, InvalidJsonReportsGoScannerMessage) {
  auto v = judgeText("{\"kind\" \"ConversionReview\"}");
  EXPECT_EQ(v.message, kFailed +
                           "couldn't get version/kind; json parse error: invalid character "
                           "'\"' after object key");
  v = judgeText("{\"kind\":\"ConversionReview\"} trailing");
  EXPECT_EQ(v.message, kFailed +
                           "couldn't get version/kind; json parse error: invalid character "
                           "'t' after top-level value");
}

TEST_P(EnvelopeTest, PlainTextBodyIsReadAsYamlAndFails) {
  auto v = judgeText("OK");
  EXPECT_EQ(v.stage, ModelStage::Decode);
  EXPECT_EQ(v.message, kFailed +
                           "couldn't get version/kind; json parse error: json: cannot unmarshal "
                           "string into Go value of type struct { APIVersion string "
                           "\"json:\\\"apiVersion,omitempty\\\"\"; Kind string "
                           "\"json:\\\"kind,omitempty\\\"\" }");
}

TEST_P(EnvelopeTest, YamlBodyIsDecoded) {
  const std::string yaml = std::string("apiVersion: ") + reviewApiVersion(GetParam()) +
                           "\nkind: ConversionReview\nresponse:\n  uid: " + kRequestUid +
                           "\n  result:\n    status: Success\n  convertedObjects:\n  - " +
                           converted(sent.objects[0]).dump() + "\n";
  auto v = judgeText(yaml);
  EXPECT_EQ(v.stage, ModelStage::Accepted) << v.message;
}

TEST_P(EnvelopeTest, KindOfEnvelopeTypedWrongIsAParseError) {
  json body = good();
  body["kind"] = 5;
  auto v = judge(body);
  EXPECT_EQ(v.stage, ModelStage::Decode);
  EXPECT_EQ(v.message, kFailed +
                           "couldn't get version/kind; json parse error: json: cannot "
                           "unmarshal number into Go struct field .kind of type string");
}

// --- version-specific rules -------------------------------------------------------------------

TEST(EnvelopeV1Test, MissingApiVersionAndKindFailTheGvkCheck) {
  auto sent = sentReview(ReviewVersion::V1, {fooObject()});
  json body = responseEnvelope(sent, {converted(sent.objects[0])});
  body.erase("apiVersion");
  body.erase("kind");
  auto v = judgeConversion(sent, answer(body), nullptr);
  EXPECT_EQ(v.stage, ModelStage::EnvelopeGvk);
  EXPECT_EQ(v.message, kFailed +
                           "expected webhook response of apiextensions.k8s.io/v1, "
                           "Kind=ConversionReview, got /, Kind=");
}

TEST(EnvelopeV1Test, MissingApiVersionWithKindFailsTheGvkCheck) {
  auto sent = sentReview(ReviewVersion::V1, {fooObject()});
  json body = responseEnvelope(sent, {converted(sent.objects[0])});
  body.erase("apiVersion");
  auto v = judgeConversion(sent, answer(body), nullptr);
  EXPECT_EQ(v.stage, ModelStage::EnvelopeGvk);
  EXPECT_EQ(v.message, kFailed +
                           "expected webhook response of apiextensions.k8s.io/v1, "
                           "Kind=ConversionReview, got /, Kind=ConversionReview");
}

TEST(EnvelopeV1Test, UpperCaseEnvelopeKeysAreNotTypeMeta) {
  // Interpret sees them (case-insensitive), the struct decoder does not (case-sensitive).
  auto sent = sentReview(ReviewVersion::V1, {fooObject()});
  json body = responseEnvelope(sent, {converted(sent.objects[0])});
  body.erase("apiVersion");
  body.erase("kind");
  body["APIVERSION"] = "apiextensions.k8s.io/v1";
  body["KIND"] = "ConversionReview";
  auto v = judgeConversion(sent, answer(body), nullptr);
  EXPECT_EQ(v.stage, ModelStage::EnvelopeGvk);
  EXPECT_EQ(v.message, kFailed +
                           "expected webhook response of apiextensions.k8s.io/v1, "
                           "Kind=ConversionReview, got /, Kind=");
}

TEST(EnvelopeV1Test, UidMustMatchTheRequest) {
  auto sent = sentReview(ReviewVersion::V1, {fooObject()});
  json body = responseEnvelope(sent, {converted(sent.objects[0])});
  body["response"]["uid"] = "other \"uid\"";
  auto v = judgeConversion(sent, answer(body), nullptr);
  EXPECT_EQ(v.stage, ModelStage::Uid);
  EXPECT_EQ(v.message,
            kFailed + "expected response.uid=\"" + kRequestUid + "\", got \"other \\\"uid\\\"\"");
}

TEST(EnvelopeV1Test, UpperCaseUidKeyIsIgnoredSoTheUidIsMissing) {
  auto sent = sentReview(ReviewVersion::V1, {fooObject()});
  json body = responseEnvelope(sent, {converted(sent.objects[0])});
  body["response"]["UID"] = body["response"]["uid"];
  body["response"].erase("uid");
  auto v = judgeConversion(sent, answer(body), nullptr);
  EXPECT_EQ(v.stage, ModelStage::Uid);
  EXPECT_EQ(v.message, kFailed + "expected response.uid=\"" + kRequestUid + "\", got \"\"");
}

TEST(EnvelopeV1Test, UidCheckComesBeforeResultStatus) {
  auto sent = sentReview(ReviewVersion::V1, {fooObject()});
  json body = responseEnvelope(sent, {}, "Failure");
  body["response"]["uid"] = "";
  EXPECT_EQ(judgeConversion(sent, answer(body), nullptr).stage, ModelStage::Uid);
}

TEST(EnvelopeV1beta1Test, MissingApiVersionAndKindAreAccepted) {
  auto sent = sentReview(ReviewVersion::V1beta1, {fooObject()});
  json body = responseEnvelope(sent, {converted(sent.objects[0])});
  body.erase("apiVersion");
  body.erase("kind");
  auto v = judgeConversion(sent, answer(body), nullptr);
  EXPECT_EQ(v.stage, ModelStage::Accepted) << v.message;
}

TEST(EnvelopeV1beta1Test, UidIsNotChecked) {
  auto sent = sentReview(ReviewVersion::V1beta1, {fooObject()});
  json body = responseEnvelope(sent, {converted(sent.objects[0])});
  body["response"].erase("uid");
  auto v = judgeConversion(sent, answer(body), nullptr);
  EXPECT_EQ(v.stage, ModelStage::Accepted) << v.message;
}

TEST(EnvelopeV1beta1Test, EmptyObjectBodyHasNoResponse) {
  auto sent = sentReview(ReviewVersion::V1beta1, {fooObject()});
  auto v = judgeConversion(sent, answer(std::string("{}")), nullptr);
  EXPECT_EQ(v.stage, ModelStage::NoResponse);
  EXPECT_EQ(v.message, kFailed + "no response provided");
}

TEST(EnvelopeModelTest, EmptyBatchIsNeverSentAndJudgedAccepted) {
  auto sent = sentReview(ReviewVersion::V1, {});
  auto v = judgeConversion(sent, answer(std::string()), nullptr);
  EXPECT_TRUE(v.accepted());
  EXPECT_TRUE(v.visible.empty());
}

TEST(EnvelopeModelTest, StageNamesAreStable) {
  EXPECT_STREQ(modelStageName(ModelStage::Accepted), "accepted");
  EXPECT_STREQ(modelStageName(ModelStage::HttpStatus), "http-status");
  EXPECT_STREQ(modelStageName(ModelStage::ResultStatus), "result-status");
  EXPECT_STREQ(modelStageName(ModelStage::Coerce), "coerce");
}

}  // namespace
}  // namespace convcheck
