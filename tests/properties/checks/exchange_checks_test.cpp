// Specification of the single-exchange properties, judged on real answers through the real
// API-server model.
#include "properties/checks/exchange_checks.h"

#include <gtest/gtest.h>

#include <map>

#include "kube/apiserver/apiserver_model.h"
#include "properties/checks/json_diff.h"

namespace convcheck {
namespace {

using nlohmann::json;

json object(const std::string& name, const std::string& version) {
  return {{"apiVersion", "stable.example.com/" + version},
          {"kind", "CronTab"},
          {"metadata",
           {{"name", name},
            {"namespace", "default"},
            {"uid", name + "-uid"},
            {"generation", 1},
            {"labels", {{"app", "demo"}}}}},
          {"spec", {{"image", "nginx"}}}};
}

SentReview review(std::vector<json> objects) {
  SentReview s;
  s.version = ReviewVersion::V1;
  s.uid = "11111111-2222-4333-8444-555555555555";
  s.desiredApiVersion = "stable.example.com/v1";
  s.objects = SharedObjects::own(std::move(objects));
  s.kind = "CronTab";
  s.listKind = "CronTabList";
  return s;
}

// The correct answer: every object with apiVersion set to the desired version.
json converted(const SentReview& s) {
  json out = json::array();
  for (auto o : s.objects) {
    o["apiVersion"] = s.desiredApiVersion;
    out.push_back(o);
  }
  return out;
}

Exchange answer(const SentReview& s, json convertedObjects, std::string uid = "") {
  Exchange ex;
  ex.sent = s;
  json body = {{"apiVersion", "apiextensions.k8s.io/v1"},
               {"kind", "ConversionReview"},
               {"response",
                {{"uid", uid.empty() ? s.uid : uid},
                 {"convertedObjects", convertedObjects},
                 {"result", {{"status", "Success"}}}}}};
  ex.http.url = "https://127.0.0.1:1/convert?timeout=30s";
  ex.http.status = 200;
  ex.http.contentType = "application/json";
  ex.http.body = body.dump();
  ex.verdict = judgeConversion(ex.sent, ex.http, json());
  return ex;
}

std::map<std::string, Outcome> outcomes(const Exchange& ex) {
  std::map<std::string, Outcome> out;
  for (const auto& r :
       checkExchange(share(ex), {"v1beta1", "v1", std::chrono::milliseconds(30000)}))
    out[r.property] = r.outcome;
  return out;
}

std::vector<std::string> failing(const Exchange& ex) {
  std::vector<std::string> out;
  for (const auto& [p, o] : outcomes(ex))
    if (o == Outcome::Fail) out.push_back(p);
  return out;
}

using Names = std::vector<std::string>;

TEST(ExchangeChecks, CorrectAnswerPassesEveryProperty) {
  auto s = review({object("a", "v1beta1"), object("b", "v1beta1")});
  auto ex = answer(s, converted(s));
  ASSERT_TRUE(ex.verdict.accepted()) << ex.verdict.message;
  EXPECT_EQ(failing(ex), Names{});
  EXPECT_EQ(outcomes(ex).size(), 9u);
}

TEST(ExchangeChecks, ReversedObjectsFailOrderOnly) {
  auto s = review({object("a", "v1beta1"), object("b", "v1beta1")});
  json objects = converted(s);
  std::swap(objects[0], objects[1]);
  auto ex = answer(s, objects);
  EXPECT_FALSE(ex.verdict.accepted());
  EXPECT_EQ(failing(ex), Names{"order"});
}

TEST(ExchangeChecks, ChangedNameFailsMetadataImmutableOnly) {
  auto s = review({object("a", "v1beta1")});
  json objects = converted(s);
  objects[0]["metadata"]["name"] = "a-converted";
  auto ex = answer(s, objects);
  EXPECT_NE(ex.verdict.message.find("must have the same name"), std::string::npos);
  EXPECT_EQ(failing(ex), Names{"metadata-immutable"});
}

TEST(ExchangeChecks, AddedFinalizerIsReportedAlthoughTheApiServerAccepts) {
  auto s = review({object("a", "v1beta1")});
  json objects = converted(s);
  objects[0]["metadata"]["finalizers"] = {"example.com/cleanup"};
  auto ex = answer(s, objects);
  EXPECT_TRUE(ex.verdict.accepted());
  EXPECT_EQ(failing(ex), Names{"metadata-immutable"});
  auto results = checkExchange(share(ex), {"v1beta1", "v1", std::chrono::milliseconds(30000)});
  for (const auto& r : results)
    if (r.property == "metadata-immutable") {
      ASSERT_TRUE(r.finding);
      EXPECT_NE(r.finding->summary.find("silently reverts"), std::string::npos);
    }
}

TEST(ExchangeChecks, EmptyMetadataMembersAddedByTheAnswerAreNoChange) {
  auto s = review({object("a", "v1beta1")});
  json objects = converted(s);
  objects[0]["metadata"]["finalizers"] = json::array();
  objects[0]["metadata"]["generateName"] = "";
  objects[0]["metadata"]["deletionGracePeriodSeconds"] = 0;
  objects[0]["metadata"]["ownerReferences"] = nullptr;
  objects[0]["metadata"]["labels"] = {{"app", "other"}};
  auto ex = answer(s, objects);
  EXPECT_TRUE(failing(ex).empty());
}

TEST(ExchangeChecks, ChangedMetadataIsReportedByPathWithExpectedAndGot) {
  auto s = review({object("a", "v1beta1"), object("b", "v1beta1")});
  json objects = converted(s);
  objects[1]["metadata"]["generation"] = 2;
  objects[1]["metadata"]["resourceVersion"] = "7";
  auto ex = answer(s, objects);
  EXPECT_EQ(failing(ex), Names{"metadata-immutable"});
  for (const auto& r :
       checkExchange(share(ex), {"v1beta1", "v1", std::chrono::milliseconds(30000)}))
    if (r.property == "metadata-immutable") {
      ASSERT_TRUE(r.finding);
      EXPECT_EQ(r.finding->details,
                (std::vector<std::string>{"silently reverted: index 1: metadata.generation",
                                          "silently reverted: index 1: metadata.resourceVersion"}));
      EXPECT_EQ(r.finding->expected, json::array({{{"generation", 1}}}));
      EXPECT_EQ(r.finding->got, json::array({{{"generation", 2}, {"resourceVersion", "7"}}}));
    }
}

TEST(ExchangeChecks, WrongUidFailsUidEchoOnly) {
  auto s = review({object("a", "v1beta1")});
  auto ex = answer(s, converted(s), "99999999-2222-4333-8444-555555555555");
  EXPECT_FALSE(ex.verdict.accepted());
  EXPECT_EQ(failing(ex), Names{"uid-echo"});
}

TEST(ExchangeChecks, MissingObjectFailsCountAndBlocksPerObjectProperties) {
  auto s = review({object("a", "v1beta1"), object("b", "v1beta1")});
  json objects = converted(s);
  objects.erase(1);
  auto ex = answer(s, objects);
  EXPECT_EQ(failing(ex), Names{"object-count"});
  EXPECT_EQ(outcomes(ex)["order"], Outcome::Blocked);
}

TEST(ExchangeChecks, SourceApiVersionFailsTargetVersion) {
  auto s = review({object("a", "v1beta1")});
  auto ex = answer(s, json::array({s.objects[0]}));
  EXPECT_EQ(failing(ex), Names{"target-version"});
}

// The diff of a wrong apiVersion, kind, uid or count names the field, not "(root)" with a list.
TEST(ExchangeChecks, EnvelopeFieldDiffsNameTheirField) {
  auto diffOf = [](const Exchange& ex, const std::string& property) {
    for (const auto& r :
         checkExchange(share(ex), {"v1beta1", "v1", std::chrono::milliseconds(30000)}))
      if (r.property == property && r.finding)
        return renderDiff(jsonDiff(r.finding->expected, r.finding->got), 10);
    return std::string("(no finding)");
  };
  auto s = review({object("a", "v1beta1")});
  EXPECT_EQ(
      diffOf(answer(s, json::array({s.objects[0]})), "target-version"),
      "- apiVersion: \"stable.example.com/v1\"\n+ apiVersion: \"stable.example.com/v1beta1\"\n");
  json objects = converted(s);
  objects[0]["kind"] = "CronTabV1";
  EXPECT_EQ(diffOf(answer(s, objects), "kind-unchanged"),
            "- kind: \"CronTab\"\n+ kind: \"CronTabV1\"\n");
  EXPECT_EQ(
      diffOf(answer(s, converted(s), "other-uid"), "uid-echo"),
      "- response.uid: \"11111111-2222-4333-8444-555555555555\"\n+ response.uid: \"other-uid\"\n");
}

TEST(ExchangeChecks, ChangedKindFailsKindUnchanged) {
  auto s = review({object("a", "v1beta1")});
  json objects = converted(s);
  objects[0]["kind"] = "CronTabV1";
  auto ex = answer(s, objects);
  EXPECT_EQ(failing(ex), Names{"kind-unchanged"});
}

TEST(ExchangeChecks, InvalidLabelValueFailsLabelsAnnotationsValid) {
  auto s = review({object("a", "v1beta1")});
  json objects = converted(s);
  objects[0]["metadata"]["labels"]["converted"] = "not a valid value!";
  auto ex = answer(s, objects);
  EXPECT_EQ(ex.verdict.stage, ModelStage::Metadata);
  EXPECT_EQ(failing(ex), Names{"labels-annotations-valid"});
}

TEST(ExchangeChecks, Http500FailsEnvelopeAndBlocksTheRest) {
  auto s = review({object("a", "v1beta1")});
  Exchange ex;
  ex.sent = s;
  ex.http.status = 500;
  ex.http.body = "boom";
  ex.http.contentType = "text/plain";
  ex.verdict = judgeConversion(ex.sent, ex.http, json());
  EXPECT_EQ(failing(ex), Names{"response-envelope"});
  EXPECT_EQ(outcomes(ex)["uid-echo"], Outcome::Blocked);
}

// A refusal says what was seen (this answer, to a request of this size), never that every read
// fails: a body-size limit refuses large requests only.
TEST(ExchangeChecks, ARefusedAnswerIsSaidForTheRequestItAnsweredNotForEveryRead) {
  auto s = review({object("a", "v1beta1"), object("b", "v1beta1")});
  Exchange ex;
  ex.sent = s;
  ex.http.status = 413;
  ex.http.body = "";
  ex.verdict = judgeConversion(ex.sent, ex.http, json());
  std::string summary;
  for (const auto& r :
       checkExchange(share(ex), {"v1beta1", "v1", std::chrono::milliseconds(30000)}))
    if (r.property == "response-envelope" && r.finding) summary = r.finding->summary;
  EXPECT_EQ(
      summary.rfind("kube-apiserver rejects the answer (http-status: HTTP 413) to a request of "
                    "2 objects (",
                    0),
      0u)
      << summary;
  EXPECT_NE(summary.find(") v1beta1 -> v1: the get, list, watch or write that sends it fails"),
            std::string::npos)
      << summary;
  EXPECT_EQ(summary.find("every"), std::string::npos) << summary;
}

TEST(ExchangeChecks, TimeoutFailsTimeoutAndBlocksEnvelope) {
  auto s = review({object("a", "v1beta1")});
  Exchange ex;
  ex.sent = s;
  ex.http.transportError = "timed out";
  ex.http.transportErrorKind = TransportErrorKind::Timeout;
  ex.verdict = judgeConversion(ex.sent, ex.http, json());
  EXPECT_EQ(failing(ex), Names{"timeout"});
  EXPECT_EQ(outcomes(ex)["response-envelope"], Outcome::Blocked);
}

TEST(ExchangeChecks, WellFormedFailureResultPassesTheEnvelopeAndKeepsTheWebhookMessage) {
  auto s = review({object("a", "v1beta1")});
  Exchange ex = answer(s, converted(s));
  json body = json::parse(ex.http.body);
  body["response"]["result"] = {{"status", "Failure"}, {"message", "cannot convert a"}};
  body["response"].erase("convertedObjects");
  ex.http.body = body.dump();
  ex.verdict = judgeConversion(ex.sent, ex.http, json());
  EXPECT_EQ(failing(ex), Names{});  // converts-valid-input judges the refusal
  EXPECT_EQ(
      ex.verdict.message,
      "conversion webhook for stable.example.com/v1beta1, Kind=CronTab failed: cannot convert a");
}

}  // namespace
}  // namespace convcheck
