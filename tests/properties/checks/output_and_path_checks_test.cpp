// Specification of converts-valid-input, schema-valid, no-pruned-fields, transitivity,
// edit-round-trip and batch-independence, judged through the real API-server model.
#include <gtest/gtest.h>

#include "kube/apiserver/apiserver_model.h"
#include "properties/checks/output_checks.h"
#include "properties/checks/path_checks.h"

namespace convcheck {
namespace {

using nlohmann::json;

const CaseContext kCtx{"v1beta1", "v1", std::chrono::milliseconds(30000)};

json cronTab(const std::string& name, json spec) {
  return {{"apiVersion", "stable.example.com/v1beta1"},
          {"kind", "CronTab"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", name + "-uid"}}},
          {"spec", spec}};
}

const json kSchema = {
    {"type", "object"},
    {"properties",
     {{"spec", {{"type", "object"}, {"properties", {{"image", {{"type", "string"}}}}}}}}}};

Exchange answer(std::vector<json> objects, json response, json schema = kSchema) {
  Exchange ex;
  ex.sent.version = ReviewVersion::V1;
  ex.sent.uid = "u-1";
  ex.sent.desiredApiVersion = "stable.example.com/v1";
  ex.sent.objects = SharedObjects::own(std::move(objects));
  ex.sent.kind = "CronTab";
  ex.sent.listKind = "CronTabList";
  response["uid"] = "u-1";
  ex.http.status = 200;
  ex.http.body = json{
      {"apiVersion", "apiextensions.k8s.io/v1"},
      {"kind", "ConversionReview"},
      {"response",
       response}}.dump();
  ex.verdict = judgeConversion(ex.sent, ex.http, schema);
  return ex;
}

json converted(json object) {
  object["apiVersion"] = "stable.example.com/v1";
  return object;
}

Exchange success(std::vector<json> objects, std::vector<json> out) {
  return answer(objects, {{"convertedObjects", out}, {"result", {{"status", "Success"}}}});
}

Outcome outcome(const std::vector<CheckResult>& results, const std::string& property) {
  for (const auto& r : results)
    if (r.property == property) return r.outcome;
  ADD_FAILURE() << property << " missing";
  return Outcome::Blocked;
}

auto noViolations = [](const json&) { return std::vector<std::string>{}; };

TEST(OutputChecks, RefusingValidInputFailsConvertsValidInputNotTheEnvelope) {
  auto a = cronTab("a", {{"image", "x"}});
  auto ex = answer({a}, {{"result", {{"status", "Failure"}, {"message", "unsupported"}}}});
  auto results = checkOutput(share(ex), kCtx, noViolations);
  EXPECT_EQ(outcome(results, "converts-valid-input"), Outcome::Fail);
  EXPECT_EQ(outcome(checkExchange(share(ex), kCtx), "response-envelope"), Outcome::Pass);
}

TEST(OutputChecks, MalformedStatusFailsTheEnvelopeToo) {
  auto a = cronTab("a", {{"image", "x"}});
  auto ex = answer({a}, {{"result", {{"status", "Failed"}}}});
  EXPECT_EQ(outcome(checkExchange(share(ex), kCtx), "response-envelope"), Outcome::Fail);
  EXPECT_EQ(outcome(checkOutput(share(ex), kCtx, noViolations), "converts-valid-input"),
            Outcome::Fail);
}

TEST(OutputChecks, FieldUnknownToTheTargetSchemaFailsNoPrunedFields) {
  auto a = cronTab("a", {{"image", "x"}});
  json out = converted(a);
  out["spec"]["convertedBy"] = "me";
  auto ex = success({a}, {out});
  ASSERT_TRUE(ex.verdict.accepted());
  auto results = checkOutput(share(ex), kCtx, noViolations);
  EXPECT_EQ(outcome(results, "no-pruned-fields"), Outcome::Fail);
  EXPECT_EQ(outcome(results, "converts-valid-input"), Outcome::Pass);
  EXPECT_EQ(outcome(results, "schema-valid"), Outcome::Pass);
}

TEST(OutputChecks, ValidatorViolationsFailSchemaValid) {
  auto a = cronTab("a", {{"image", "x"}});
  auto ex = success({a}, {converted(a)});
  auto results = checkOutput(share(ex), kCtx, [](const json& o) {
    return o["spec"]["image"] == "x" ? std::vector<std::string>{"spec.image: too short"}
                                     : std::vector<std::string>{};
  });
  EXPECT_EQ(outcome(results, "schema-valid"), Outcome::Fail);
  EXPECT_EQ(outcome(results, "no-pruned-fields"), Outcome::Pass);
}

TEST(OutputChecks, SchemaValidSaysOneLinePerViolationAndOneHintPerField) {
  auto a = cronTab("a", {{"image", "x"}});
  auto b = cronTab("b", {{"image", "y"}});
  json outA = converted(a), outB = converted(b);
  outA["spec"]["image"] = "x ";
  outB["spec"]["image"] = "y ";
  auto ex = success({a, b}, {outA, outB});
  CaseContext ctx = kCtx;
  ctx.schemaOf = [](const std::string&) { return &kSchema; };
  auto results = checkOutput(share(ex), ctx, [](const json& o) {
    return std::vector<std::string>{"spec.image: Invalid value: " + o["spec"]["image"].dump() +
                                    ": spec.image in body should match '^[a-z]+$'"};
  });
  const Finding* f = nullptr;
  for (const auto& r : results)
    if (r.property == "schema-valid") f = r.finding ? &*r.finding : nullptr;
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->details,
            (std::vector<std::string>{
                "index 0: spec.image: Invalid value: \"x \": spec.image in body should match "
                "'^[a-z]+$'",
                "index 1: spec.image: Invalid value: \"y \": spec.image in body should match "
                "'^[a-z]+$'",
                "hint: the webhook wrote spec.image = \"x \" (the v1beta1 object had \"x\"): "
                "likelier fix: the webhook"}));
}

TEST(PathChecks, TransitivityComparesTheDirectAndTheTwoHopResult) {
  auto a = cronTab("a", {{"image", "x"}});
  auto direct = success({a}, {converted(a)});
  json other = converted(a);
  other["spec"]["image"] = "y";
  auto viaFirst = success({a}, {converted(a)});
  auto same = success({a}, {converted(a)});
  auto differs = success({a}, {other});
  EXPECT_EQ(checkTransitivity(share(direct), share(viaFirst), share(same), "v2", kCtx).outcome,
            Outcome::Pass);
  auto r = checkTransitivity(share(direct), share(viaFirst), share(differs), "v2", kCtx);
  ASSERT_EQ(r.outcome, Outcome::Fail);
  EXPECT_NE(r.finding->summary.find("spec.image"), std::string::npos);
  EXPECT_EQ(r.finding->exchanges.size(), 3u);
}

TEST(PathChecks, EditRoundTripFailsWhenTheEditIsLost) {
  json edited = {{"spec", {{"replicas", 5}}}};
  json returned = {{"spec", {{"replicas", 3}}}};
  auto r = checkEditRoundTrip(edited, returned, {}, kCtx);
  ASSERT_EQ(r.outcome, Outcome::Fail);
  EXPECT_NE(r.finding->summary.find("changes spec.replicas"), std::string::npos);
  EXPECT_EQ(checkEditRoundTrip(edited, edited, {}, kCtx).outcome, Outcome::Pass);
  EXPECT_NE(r.finding->summary.find("stale copy"), std::string::npos);
}

TEST(PathChecks, EditRoundTripOfARoundedIntegerBlamesFloat64NotAStaleCopy) {
  json edited = {{"status", {{"active", 9007199254740993LL}}}};
  json returned = {{"status", {{"active", 9007199254740992LL}}}};
  auto r = checkEditRoundTrip(edited, returned, {}, kCtx);
  ASSERT_EQ(r.outcome, Outcome::Fail);
  EXPECT_NE(r.finding->summary.find("float64"), std::string::npos) << r.finding->summary;
  EXPECT_EQ(r.finding->summary.find("stale copy"), std::string::npos) << r.finding->summary;
}

TEST(PathChecks, BatchIndependenceComparesAloneAndReordered) {
  auto a = cronTab("a", {{"image", "x"}});
  auto b = cronTab("b", {{"image", "y"}});
  auto batch = success({a, b}, {converted(a), converted(b)});
  auto aloneA = success({a}, {converted(a)});
  json changed = converted(b);
  changed["spec"]["image"] = "z";
  auto aloneB = success({b}, {changed});
  auto reordered = success({b, a}, {converted(b), converted(a)});
  std::vector<std::size_t> permutation = {1, 0};
  EXPECT_EQ(checkBatchIndependence(share(batch), {{0, share(aloneA)}}, share(reordered),
                                   permutation, kCtx)
                .outcome,
            Outcome::Pass);
  auto r = checkBatchIndependence(share(batch), {{0, share(aloneA)}, {1, share(aloneB)}},
                                  share(reordered), permutation, kCtx);
  ASSERT_EQ(r.outcome, Outcome::Fail);
  EXPECT_NE(r.finding->summary.find("object 1"), std::string::npos);
  json wrong = converted(a);
  wrong["spec"]["image"] = "w";
  auto badOrder = success({b, a}, {converted(b), wrong});
  EXPECT_EQ(checkBatchIndependence(share(batch), {}, share(badOrder), permutation, kCtx).outcome,
            Outcome::Fail);
}

}  // namespace
}  // namespace convcheck
