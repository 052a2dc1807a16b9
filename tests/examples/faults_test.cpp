// Injected faults: the catalogue, and that each fault breaks exactly the convcheck property it
// names while the others keep holding, judged like kube-apiserver would.
#include "examples/webhook/faults.h"

#include <algorithm>
#include <regex>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "examples/webhook/object_converter.h"
#include "examples/webhook/object_faults.h"
#include "examples/webhook/review_handler.h"
#include "examples/webhook/widget_converter.h"

namespace convcheck::example {
namespace {

using nlohmann::json;

constexpr const char* kUid = "5e7a1f0c-aaaa-4bbb-8ccc-000000000042";

std::string review(const std::string& desired, const json& objects, const std::string& uid = kUid) {
  return json{{"kind", "ConversionReview"},
              {"apiVersion", "apiextensions.k8s.io/v1"},
              {"request", {{"uid", uid}, {"desiredAPIVersion", desired}, {"objects", objects}}}}
      .dump();
}

json cronTabV1(const std::string& name, const std::string& image) {
  return {{"apiVersion", "stable.example.com/v1"},
          {"kind", "CronTab"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", "uid-" + name}}},
          {"spec", {{"host", "h"}, {"port", "1"}, {"image", image}}}};
}

json widgetAt(const std::string& version, int index) {
  json spec = {{"colour", "red"}, {"replicas", index * 111}};
  if (version == "v1") spec["nickname"] = "w" + std::to_string(index);
  const std::string name = "w-" + std::to_string(index);
  return {{"apiVersion", "example.convcheck.dev/" + version},
          {"kind", "Widget"},
          {"metadata",
           {{"name", name},
            {"namespace", "default"},
            {"uid", "uid-" + name},
            {"generation", 1},
            {"labels", {{"app", "w"}}}}},
          {"spec", spec}};
}

// Nine Widgets (v1beta1 and v1) whose names end in a digit, some with replicas above 100.
json faultBatch() {
  json objects = json::array();
  for (int i = 1; i <= 9; ++i) objects.push_back(widgetAt(i % 3 == 0 ? "v1" : "v1beta1", i));
  return objects;
}

// kube-apiserver's metadata restore: everything from the original except labels/annotations.
json restoreMetadata(const json& original, json converted) {
  json metadata = original.value("metadata", json::object());
  for (const char* key : {"labels", "annotations"}) {
    metadata.erase(key);
    if (converted["metadata"].contains(key) && !converted["metadata"][key].is_null())
      metadata[key] = converted["metadata"][key];
  }
  converted["metadata"] = metadata;
  return converted;
}

json metadataWithoutLabelsAndAnnotations(const json& object) {
  json metadata = object.value("metadata", json::object());
  metadata.erase("labels");
  metadata.erase("annotations");
  return metadata;
}

bool validLabelValue(const std::string& value) {
  static const std::regex kLabelValue("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$");
  return value.size() <= 63 && std::regex_match(value, kLabelValue);
}

const json* findByUid(const json& objects, const json& uid) {
  for (const auto& o : objects)
    if (o["metadata"]["uid"] == uid) return &o;
  return nullptr;
}

// The convcheck properties (SPEC §4) that fail when `objects` are converted to `desired` by a
// webhook with `faults`: a small model of what convcheck checks, for this test only.
std::set<std::string> failingProperties(const FaultSet& faults, const std::string& desired,
                                        const json& objects) {
  std::set<std::string> failing;
  const auto reply = handleConversionReview("application/json", review(desired, objects), faults);
  // A rejection: the property fails and kube-apiserver would not accept the answer.
  bool acceptedByApiServer = true;
  auto reject = [&](const char* property) {
    failing.insert(property);
    acceptedByApiServer = false;
  };
  if (reply.delay.count() > 0) failing.insert("timeout");
  if (reply.status != 200) {
    failing.insert("response-envelope");
    return failing;
  }
  const json out = json::parse(reply.body);
  if (out["response"]["result"]["status"] != "Success") {
    failing.insert("response-envelope");
    return failing;
  }
  if (out["response"]["uid"] != kUid) reject("uid-echo");
  const json& converted = out["response"]["convertedObjects"];
  if (converted.size() != objects.size()) reject("object-count");

  for (std::size_t i = 0; i < converted.size(); ++i) {
    const json& got = converted[i];
    if (i < objects.size() && got["metadata"]["uid"] != objects[i]["metadata"]["uid"])
      reject("order");
    if (got["apiVersion"] != desired) reject("target-version");
    const json* original = findByUid(objects, got["metadata"]["uid"]);
    if (!original) {
      reject("metadata-immutable");
      continue;
    }
    if (got["kind"] != (*original)["kind"]) reject("kind-unchanged");
    if (got["metadata"]["name"] != (*original)["metadata"]["name"]) reject("metadata-immutable");
    if (metadataWithoutLabelsAndAnnotations(got) != metadataWithoutLabelsAndAnnotations(*original))
      failing.insert("metadata-immutable");  // silently reverted by kube-apiserver
    const json labels = got["metadata"].value("labels", json::object());
    for (const auto& [key, value] : labels.items())
      if (!value.is_string() || !validLabelValue(value.get<std::string>()))
        reject("labels-annotations-valid");
  }

  const auto again = handleConversionReview("application/json", review(desired, objects), faults);
  if (again.status == 200 && json::parse(again.body)["response"]["convertedObjects"] != converted)
    failing.insert("determinism");

  if (!acceptedByApiServer) return failing;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const json there = restoreMetadata(objects[i], converted[i]);
    const auto backReply = handleConversionReview(
        "application/json",
        review(objects[i]["apiVersion"].get<std::string>(), json::array({there})), faults);
    const json back = json::parse(backReply.body)["response"]["convertedObjects"][0];
    if (restoreMetadata(there, back) != objects[i]) failing.insert("round-trip");
  }
  return failing;
}

TEST(FaultCatalogue, NamesAreUniqueAndResolveBackToTheirFault) {
  std::set<std::string_view> names;
  for (const auto& info : faultCatalogue()) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_EQ(faultFromName(info.name), info.fault);
    EXPECT_EQ(faultInfo(info.fault).name, info.name);
  }
  EXPECT_EQ(names.size(), 14u);
}

TEST(FaultCatalogue, ListingHasOneLinePerFaultWithItsProperty) {
  const std::string listing = faultListing();
  std::size_t lines = 0;
  for (char c : listing) lines += c == '\n';
  EXPECT_EQ(lines, faultCatalogue().size());
  for (const auto& info : faultCatalogue()) {
    auto at = listing.find(std::string(info.name) + " ");
    ASSERT_NE(at, std::string::npos) << info.name;
    EXPECT_NE(listing.find(info.property, at), std::string::npos) << info.name;
  }
}

TEST(FaultCatalogue, ParsingAnUnknownNameFailsNamingIt) {
  auto parsed = parseFaultNames({"drop-field", "no-such-fault"});
  EXPECT_NE(parsed.error.find("no-such-fault"), std::string::npos) << parsed.error;
}

TEST(FaultCatalogue, ParsingKnownNamesEnablesExactlyThose) {
  auto parsed = parseFaultNames({"drop-field", "delay-3s"});
  ASSERT_TRUE(parsed.error.empty());
  EXPECT_TRUE(parsed.faults.has(Fault::DropField));
  EXPECT_TRUE(parsed.faults.has(Fault::Delay3s));
  EXPECT_FALSE(parsed.faults.has(Fault::ChangeName));
}

TEST(FaultFree, TheCorrectWebhookFailsNoProperty) {
  EXPECT_EQ(failingProperties({}, "example.convcheck.dev/v1alpha1", faultBatch()),
            std::set<std::string>{});
}

}  // namespace

// Readable test parameters: "drop-field (round-trip)".
void PrintTo(const FaultInfo& info, std::ostream* out) {
  *out << info.name << " (" << info.property << ")";
}

namespace {

class EachFault : public ::testing::TestWithParam<FaultInfo> {};

TEST_P(EachFault, BreaksExactlyTheNamedProperty) {
  const FaultInfo& info = GetParam();
  EXPECT_EQ(failingProperties({info.fault}, "example.convcheck.dev/v1alpha1", faultBatch()),
            std::set<std::string>{std::string(info.property)});
}

INSTANTIATE_TEST_SUITE_P(Catalogue, EachFault,
                         ::testing::ValuesIn(faultCatalogue().begin(), faultCatalogue().end()),
                         [](const auto& param) {
                           std::string name(param.param.name);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(Faults, UidNotEchoedAnswersWithAnotherUid) {
  auto out = json::parse(handleConversionReview("application/json",
                                                review("stable.example.com/v1beta1",
                                                       json::array({cronTabV1("a", "i")})),
                                                {Fault::UidNotEchoed})
                             .body);
  EXPECT_NE(out["response"]["uid"], kUid);
}

TEST(Faults, ReverseObjectsReversesABatchOfTwo) {
  auto out = json::parse(
      handleConversionReview("application/json",
                             review("stable.example.com/v1beta1",
                                    json::array({cronTabV1("a", "i"), cronTabV1("b", "i")})),
                             {Fault::ReverseObjects})
          .body);
  EXPECT_EQ(out["response"]["convertedObjects"][0]["metadata"]["name"], "b");
  EXPECT_EQ(out["response"]["convertedObjects"][1]["metadata"]["name"], "a");
}

TEST(Faults, DropFieldDropsCronTabImageGoingToV1beta1) {
  auto out =
      convertObject(cronTabV1("a", "nginx"), "stable.example.com/v1beta1", {Fault::DropField});
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE(out.object["spec"].contains("image"));
  EXPECT_EQ(out.object["spec"]["hostPort"], "h:1");
}

TEST(Faults, DropFieldDropsWidgetReplicasGoingToV1alpha1) {
  auto out =
      convertObject(widgetAt("v1beta1", 2), "example.convcheck.dev/v1alpha1", {Fault::DropField});
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE(out.object["spec"].contains("count"));
  EXPECT_EQ(out.object["spec"]["color"], "red");
}

TEST(Faults, LossyRoundTripTruncatesOnlyLongImages) {
  auto longImage = convertObject(cronTabV1("a", "registry.example.com/cron:1.2"),
                                 "stable.example.com/v1beta1", {Fault::LossyRoundTrip});
  EXPECT_EQ(longImage.object["spec"]["image"], "registry");
  auto shortImage =
      convertObject(cronTabV1("a", "nginx"), "stable.example.com/v1beta1", {Fault::LossyRoundTrip});
  EXPECT_EQ(shortImage.object["spec"]["image"], "nginx");
}

TEST(Faults, LossyRoundTripCapsWidgetReplicasAbove100) {
  auto big = convertObject(widgetAt("v1beta1", 5), "example.convcheck.dev/v1alpha1",
                           {Fault::LossyRoundTrip});
  EXPECT_EQ(big.object["spec"]["count"], 100);
  auto small = convertObject(widgetAt("v1beta1", 0), "example.convcheck.dev/v1alpha1",
                             {Fault::LossyRoundTrip});
  EXPECT_EQ(small.object["spec"]["count"], 0);
}

TEST(Faults, ChangeNameAppendsASuffix) {
  auto out = convertObject(cronTabV1("a", "i"), "stable.example.com/v1beta1", {Fault::ChangeName});
  EXPECT_EQ(out.object["metadata"]["name"], "a-converted");
}

TEST(Faults, NondeterministicAddsAFreshAnnotationAndRemovesItOnTheWayBack) {
  const FaultSet faults{Fault::Nondeterministic};
  const std::string key(kConvertedAtAnnotation);
  auto first = convertObject(cronTabV1("a", "i"), "stable.example.com/v1beta1", faults);
  auto second = convertObject(cronTabV1("a", "i"), "stable.example.com/v1beta1", faults);
  ASSERT_TRUE(first.object["metadata"]["annotations"].contains(key));
  EXPECT_NE(first.object["metadata"]["annotations"][key],
            second.object["metadata"]["annotations"][key]);
  auto back = convertObject(first.object, "stable.example.com/v1", faults);
  EXPECT_EQ(back.object, cronTabV1("a", "i"));
}

TEST(Faults, Http500Over8AnswersHttp500ForNineObjectsAnd200ForEight) {
  json nine = faultBatch();
  json eight = nine;
  eight.erase(8);
  const FaultSet faults{Fault::Http500Over8};
  EXPECT_EQ(handleConversionReview("application/json",
                                   review("example.convcheck.dev/v1alpha1", nine), faults)
                .status,
            500);
  EXPECT_EQ(handleConversionReview("application/json",
                                   review("example.convcheck.dev/v1alpha1", eight), faults)
                .status,
            200);
}

TEST(Faults, Delay3sAsksTheServerToWaitThreeSeconds) {
  auto reply = handleConversionReview(
      "application/json", review("stable.example.com/v1beta1", json::array({cronTabV1("a", "i")})),
      {Fault::Delay3s});
  EXPECT_EQ(reply.delay, std::chrono::seconds(3));
  EXPECT_EQ(reply.status, 200);
}

TEST(Faults, WrongApiVersionKeepsTheSourceApiVersion) {
  auto out =
      convertObject(cronTabV1("a", "i"), "stable.example.com/v1beta1", {Fault::WrongApiVersion});
  EXPECT_EQ(out.object["apiVersion"], "stable.example.com/v1");
  EXPECT_EQ(out.object["spec"]["hostPort"], "h:1");
}

TEST(Faults, ChangeKindChangesTheKind) {
  auto out = convertObject(cronTabV1("a", "i"), "stable.example.com/v1beta1", {Fault::ChangeKind});
  EXPECT_EQ(out.object["kind"], "CronTabConverted");
}

TEST(Faults, DropLastObjectReturnsOneObjectFewer) {
  auto out = json::parse(
      handleConversionReview("application/json",
                             review("stable.example.com/v1beta1",
                                    json::array({cronTabV1("a", "i"), cronTabV1("b", "i")})),
                             {Fault::DropLastObject})
          .body);
  ASSERT_EQ(out["response"]["convertedObjects"].size(), 1u);
  EXPECT_EQ(out["response"]["convertedObjects"][0]["metadata"]["name"], "a");
}

TEST(Faults, InvalidLabelAddsALabelValueTheApiServerRejects) {
  auto out =
      convertObject(cronTabV1("a", "i"), "stable.example.com/v1beta1", {Fault::InvalidLabel});
  const auto& value = out.object["metadata"]["labels"][std::string(kFaultLabelKey)];
  ASSERT_TRUE(value.is_string());
  EXPECT_FALSE(validLabelValue(value.get<std::string>()));
}

TEST(Faults, MutateFinalizersAddsAFinalizerOnce) {
  const FaultSet faults{Fault::MutateFinalizers};
  auto there = convertObject(cronTabV1("a", "i"), "stable.example.com/v1beta1", faults);
  EXPECT_EQ(there.object["metadata"]["finalizers"], json::array({std::string(kFaultFinalizer)}));
  auto back = convertObject(there.object, "stable.example.com/v1", faults);
  EXPECT_EQ(back.object["metadata"]["finalizers"].size(), 1u);
}

TEST(Faults, FailureResultFailsOnlyReviewsWithANameEndingInADigit) {
  const FaultSet faults{Fault::FailureResult};
  auto withDigit = json::parse(
      handleConversionReview("application/json",
                             review("stable.example.com/v1beta1",
                                    json::array({cronTabV1("a", "i"), cronTabV1("b2", "i")})),
                             faults)
          .body);
  EXPECT_EQ(withDigit["response"]["result"]["status"], "Failure");
  EXPECT_NE(withDigit["response"]["result"]["message"].get<std::string>().find("default/b2"),
            std::string::npos);
  auto withoutDigit = json::parse(
      handleConversionReview(
          "application/json",
          review("stable.example.com/v1beta1", json::array({cronTabV1("a", "i")})), faults)
          .body);
  EXPECT_EQ(withoutDigit["response"]["result"]["status"], "Success");
}

}  // namespace
}  // namespace convcheck::example
