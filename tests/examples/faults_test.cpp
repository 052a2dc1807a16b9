// Injected faults: the catalogue, what each fault does to the answer, and that each breaks
// exactly the convcheck property it names (plus what its catalogue row says it cannot help
// breaking) while the others keep holding, judged by a small model of convcheck's checks.
#include "examples/webhook/faults.h"

#include <algorithm>
#include <functional>
#include <random>
#include <set>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "examples/webhook/crontab_converter.h"
#include "examples/webhook/object_converter.h"
#include "examples/webhook/object_faults.h"
#include "examples/webhook/review_handler.h"
#include "examples/webhook/widget_converter.h"
#include "properties/checks/property_registry.h"
#include "tests/examples/crd_schema.h"
#include "tests/examples/property_model.h"
#include "tests/examples/random_objects.h"
#include "tests/support/example_webhook.h"

namespace convcheck::example {
namespace {

using nlohmann::json;
using test::ExampleWebhook;
using testing_support::isValidLabelValue;
using testing_support::loadYamlAsJson;
using testing_support::ModelCase;
using testing_support::PropertyModel;

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

json convertedObjects(const HttpReply& reply) {
  return json::parse(reply.body)["response"]["convertedObjects"];
}

json annotationsOf(const json& object) {
  return object["metadata"].value("annotations", json::object());
}

// One example CRD and a generator of its objects per version.
struct ExampleKind {
  std::string crdPath;
  std::function<rc::Gen<json>(const std::string&)> generate;
};

std::vector<ExampleKind> exampleKinds(bool widgetsMayCarryStash = false) {
  return {{ExampleWebhook::cronTabCrdPath(), testing_support::genCronTab},
          {ExampleWebhook::widgetCrdPath(),
           widgetsMayCarryStash ? testing_support::genWidget : testing_support::genFreshWidget}};
}

constexpr int kGeneratedSize = 100;  // rc's nominal size: full ranges (inRange scales by it)
constexpr int kSinglesPerPair = 12;
constexpr int kBatchesPerTarget = 6;

// Cases as convcheck's runner makes them: single objects for every ordered version pair (with
// a generated edit at the target), and batches of 2..10 objects of mixed source versions.
std::vector<ModelCase> generatedCases(const PropertyModel& model, const ExampleKind& kind,
                                      std::uint64_t seed) {
  rc::Random random(seed);
  std::mt19937_64 picks(seed);
  auto draw = [&](const std::string& version) {
    return kind.generate(version)(random.split(), kGeneratedSize).value();
  };
  std::vector<ModelCase> cases;
  for (const auto& from : model.versions())
    for (const auto& to : model.versions()) {
      if (from == to) continue;
      for (int k = 0; k < kSinglesPerPair; ++k) cases.push_back({{draw(from)}, to, draw(to)});
    }
  for (const auto& to : model.versions()) {
    std::vector<std::string> sources;
    for (const auto& v : model.versions())
      if (v != to) sources.push_back(v);
    for (int k = 0; k < kBatchesPerTarget; ++k) {
      const std::size_t size = 2 + (k * 5 + picks() % 3) % 9;  // includes batches over 8
      ModelCase c{{}, to, nullptr};
      for (std::size_t i = 0; i < size; ++i)
        c.batch.push_back(draw(sources[picks() % sources.size()]));
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

// The properties that fail, over generated cases of both example CRDs.
std::set<std::string> failingOnGeneratedCases(const FaultSet& faults, std::uint64_t seed,
                                              bool widgetsMayCarryStash = false) {
  std::set<std::string> failing;
  for (const auto& kind : exampleKinds(widgetsMayCarryStash)) {
    const PropertyModel model(loadYamlAsJson(kind.crdPath));
    for (const auto& c : generatedCases(model, kind, seed)) {
      auto found = model.failing(faults, c);
      failing.insert(found.begin(), found.end());
    }
  }
  return failing;
}

std::set<std::string> expectedFailures(const FaultInfo& info) {
  std::set<std::string> expected{std::string(info.property)};
  for (const auto& id : alsoBrokenProperties(info)) expected.insert(id);
  return expected;
}

TEST(FaultCatalogue, NamesAreUniqueAndResolveBackToTheirFault) {
  std::set<std::string_view> names;
  for (const auto& info : faultCatalogue()) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_EQ(faultFromName(info.name), info.fault);
    EXPECT_EQ(faultInfo(info.fault).name, info.name);
  }
  EXPECT_EQ(names.size(), 29u);
}

TEST(FaultCatalogue, EveryPropertyNamedIsAConvcheckProperty) {
  for (const auto& info : faultCatalogue())
    for (const auto& id : expectedFailures(info))
      EXPECT_TRUE(isKnownProperty(id)) << info.name << ": " << id;
}

TEST(FaultCatalogue, ListingHasOneLinePerFaultWithItsProperty) {
  const std::string listing = faultListing();
  std::size_t lines = 0;
  for (char c : listing) lines += c == '\n';
  EXPECT_EQ(lines, faultCatalogue().size());
  for (const auto& info : faultCatalogue()) {
    auto at = listing.find(std::string(info.name) + "  ");
    ASSERT_NE(at, std::string::npos) << info.name;
    EXPECT_NE(listing.find(std::string(info.property) + "  ", at), std::string::npos) << info.name;
  }
}

TEST(FaultCatalogue, ListingNamesWhatAFaultAlsoBreaks) {
  const std::string listing = faultListing();
  EXPECT_NE(listing.find("(also breaks: edit-round-trip transitivity)"), std::string::npos);
  EXPECT_EQ(alsoBrokenProperties(faultInfo(Fault::DropField)),
            (std::vector<std::string>{"edit-round-trip", "transitivity"}));
  EXPECT_TRUE(alsoBrokenProperties(faultInfo(Fault::SkipHub)).empty());
}

TEST(FaultCatalogue, ParsingAnUnknownNameFailsNamingIt) {
  auto parsed = parseFaultNames({"drop-field", "no-such-fault"});
  EXPECT_NE(parsed.error.find("no-such-fault"), std::string::npos) << parsed.error;
}

TEST(FaultCatalogue, ParsingKnownNamesEnablesExactlyThose) {
  auto parsed = parseFaultNames({"drop-field", "delay-3s", "skip-hub"});
  ASSERT_TRUE(parsed.error.empty());
  EXPECT_TRUE(parsed.faults.has(Fault::DropField));
  EXPECT_TRUE(parsed.faults.has(Fault::Delay3s));
  EXPECT_TRUE(parsed.faults.has(Fault::SkipHub));
  EXPECT_FALSE(parsed.faults.has(Fault::ChangeName));
  EXPECT_FALSE(parsed.faults.has(Fault::StaleStash));
}

TEST(FaultFree, TheCorrectWebhookFailsNoPropertyOnGeneratedCases) {
  EXPECT_EQ(failingOnGeneratedCases({}, 1), std::set<std::string>{});
}

TEST(FaultFree, TheCorrectWebhookFailsNoPropertyWithStashCarryingOlderWidgets) {
  EXPECT_EQ(failingOnGeneratedCases({}, 2, /*widgetsMayCarryStash=*/true), std::set<std::string>{});
}

TEST(FaultFree, TheCorrectWebhookFailsNoPropertyOnTheFixedBatch) {
  const PropertyModel model(loadYamlAsJson(ExampleWebhook::widgetCrdPath()));
  const json fixed = faultBatch();
  const std::vector<json> batch(fixed.begin(), fixed.end());
  EXPECT_EQ(model.failing({}, {batch, "v1alpha1", nullptr}), std::set<std::string>{});
}

}  // namespace

// Readable test parameters: "drop-field (round-trip)".
void PrintTo(const FaultInfo& info, std::ostream* out) {
  *out << info.name << " (" << info.property << ")";
}

namespace {

class EachFault : public ::testing::TestWithParam<FaultInfo> {};

// Over generated objects of both example CRDs, every version pair, single objects and batches,
// the fault breaks its property (and what its catalogue row says it cannot help breaking) and
// nothing else.
TEST_P(EachFault, BreaksExactlyTheNamedPropertyOnGeneratedCases) {
  const FaultInfo& info = GetParam();
  EXPECT_EQ(failingOnGeneratedCases({info.fault}, 7), expectedFailures(info));
}

INSTANTIATE_TEST_SUITE_P(Catalogue, EachFault,
                         ::testing::ValuesIn(faultCatalogue().begin(), faultCatalogue().end()),
                         [](const auto& param) {
                           std::string name(param.param.name);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// The same with random seeds: no generated case makes a fault break anything outside its row.
TEST(EachFaultOnRandomCases, BreaksNothingOutsideItsCatalogueRow) {
  struct Loaded {
    ExampleKind kind;
    std::unique_ptr<PropertyModel> model;
  };
  std::vector<Loaded> kinds;
  for (auto& kind : exampleKinds())
    kinds.push_back({kind, std::make_unique<PropertyModel>(loadYamlAsJson(kind.crdPath))});
  const bool ok = rc::check([&] {
    const auto& info = *rc::gen::elementOf(
        std::vector<FaultInfo>(faultCatalogue().begin(), faultCatalogue().end()));
    const auto& loaded = kinds[*rc::gen::inRange<std::size_t>(0, kinds.size())];
    const auto& versions = loaded.model->versions();
    const auto to = *rc::gen::elementOf(versions);
    std::vector<std::string> sources;
    for (const auto& v : versions)
      if (v != to) sources.push_back(v);
    ModelCase c{{}, to, nullptr};
    const auto size = *rc::gen::inRange<std::size_t>(1, 5);
    for (std::size_t i = 0; i < size; ++i)
      c.batch.push_back(*loaded.kind.generate(*rc::gen::elementOf(sources)));
    if (size == 1) c.edit = *loaded.kind.generate(to);
    const auto failing = loaded.model->failing({info.fault}, c);
    const auto allowed = expectedFailures(info);
    for (const auto& id : failing) {
      RC_LOG() << info.name << " also broke " << id << "\n";
      RC_ASSERT(allowed.count(id) == 1u);
    }
  });
  EXPECT_TRUE(ok);
}

TEST(Faults, UidNotEchoedAnswersWithAnotherUid) {
  auto out = json::parse(handleConversionReview("application/json",
                                                review("stable.example.com/v1beta1",
                                                       json::array({cronTabV1("a", "i")})),
                                                {Fault::UidNotEchoed})
                             .body);
  const json& response = out.at("response");
  ASSERT_TRUE(response.contains("uid")) << "a uid comes back, only not the request's";
  ASSERT_TRUE(response["uid"].is_string()) << response.dump();
  EXPECT_NE(response["uid"], kUid);
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
  EXPECT_FALSE(isValidLabelValue(value.get<std::string>()));
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

json cronTabV1beta1(const std::string& name, const std::string& hostPort) {
  return {{"apiVersion", "stable.example.com/v1beta1"},
          {"kind", "CronTab"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", "uid-" + name}}},
          {"spec", {{"hostPort", hostPort}}}};
}

json widget(const std::string& version, json spec, json annotations = nullptr) {
  json object = {{"apiVersion", "example.convcheck.dev/" + version},
                 {"kind", "Widget"},
                 {"metadata", {{"name", "w"}, {"namespace", "default"}, {"uid", "u-1"}}},
                 {"spec", std::move(spec)}};
  if (!annotations.is_null()) object["metadata"]["annotations"] = std::move(annotations);
  return object;
}

json convertOk(const json& object, const std::string& desired, const FaultSet& faults) {
  auto out = convertObject(object, desired, faults);
  EXPECT_TRUE(out.ok()) << out.error;
  return out.object;
}

const std::string kStash(kWidgetStashAnnotation);

TEST(Faults, StaleStashAlsoStashesReplicasWhenItStashesV1OnlyFields) {
  const json v1 = widget("v1", {{"colour", "red"}, {"replicas", 5}, {"nickname", "n"}});
  const json older = convertOk(v1, "example.convcheck.dev/v1beta1", {Fault::StaleStash});
  EXPECT_EQ(older["spec"], json({{"colour", "red"}, {"replicas", 5}}));
  EXPECT_EQ(json::parse(older["metadata"]["annotations"][kStash].get<std::string>()),
            json({{"nickname", "n"}, {"replicas", 5}}));
}

TEST(Faults, StaleStashCreatesNoStashForAV1ObjectWithoutV1OnlyFields) {
  const json v1 = widget("v1", {{"colour", "red"}, {"replicas", 5}});
  const json older = convertOk(v1, "example.convcheck.dev/v1alpha1", {Fault::StaleStash});
  EXPECT_FALSE(older["metadata"].contains("annotations")) << older.dump();
}

TEST(Faults, StashOverflowKeepsEightTagsThroughAnOlderVersion) {
  const FaultSet faults{Fault::StashOverflow};
  json tags = json::array();
  for (int i = 0; i < 9; ++i) tags.push_back("t" + std::to_string(i));
  const json v1 = widget("v1", {{"colour", "red"}, {"tags", tags}});
  const json back = convertOk(convertOk(v1, "example.convcheck.dev/v1alpha1", faults),
                              "example.convcheck.dev/v1", faults);
  ASSERT_EQ(back["spec"]["tags"].size(), 8u);
  EXPECT_EQ(back["spec"]["tags"][7], "t7");
}

TEST(Faults, StashOverflowKeepsUpToEightTagsExact) {
  const FaultSet faults{Fault::StashOverflow};
  const json v1 =
      widget("v1", {{"colour", "red"}, {"tags", {"a", "b", "c", "d", "e", "f", "g", "h"}}});
  EXPECT_EQ(convertOk(convertOk(v1, "example.convcheck.dev/v1beta1", faults),
                      "example.convcheck.dev/v1", faults),
            v1);
}

TEST(Faults, StaleStashKeepsAPlainRoundTripExact) {
  const FaultSet faults{Fault::StaleStash};
  const json v1 = widget("v1", {{"colour", "red"}, {"replicas", 5}, {"tags", {"a"}}});
  const json alpha = convertOk(v1, "example.convcheck.dev/v1alpha1", faults);
  EXPECT_EQ(alpha["spec"]["count"], 5);
  EXPECT_EQ(convertOk(alpha, "example.convcheck.dev/v1", faults), v1);
}

TEST(Faults, StaleStashLetsTheStashedReplicasWinOverAnEditAtTheOlderVersion) {
  const json v1 = widget("v1", {{"colour", "red"}, {"replicas", 5}, {"nickname", "n"}});
  for (const FaultSet& faults : {FaultSet{Fault::StaleStash}, FaultSet{}}) {
    json older = convertOk(v1, "example.convcheck.dev/v1alpha1", faults);
    older["spec"]["count"] = 9;  // kubectl edit at v1alpha1
    EXPECT_EQ(convertOk(older, "example.convcheck.dev/v1", faults)["spec"]["replicas"],
              faults.empty() ? 9 : 5);
  }
}

TEST(Faults, BatchPositionAnnotatesEachObjectWithItsIndexWhenCrossingTheStorageVersion) {
  const FaultSet faults{Fault::BatchPosition};
  const json objects = json::array(
      {cronTabV1beta1("a", "h:1"), cronTabV1beta1("b", "h:2"), cronTabV1beta1("c", "h:3")});
  const json converted = convertedObjects(
      handleConversionReview("application/json", review("stable.example.com/v1", objects), faults));
  ASSERT_EQ(converted.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(annotationsOf(converted[i])[std::string(kBatchIndexAnnotation)], std::to_string(i));
  const json alone = convertedObjects(handleConversionReview(
      "application/json", review("stable.example.com/v1", json::array({objects[2]})), faults));
  EXPECT_EQ(annotationsOf(alone[0])[std::string(kBatchIndexAnnotation)], "0");
}

TEST(Faults, BatchPositionRemovesItsAnnotationOnTheWayBack) {
  const FaultSet faults{Fault::BatchPosition};
  const json objects = json::array({cronTabV1beta1("a", "h:1"), cronTabV1beta1("b", "h:2")});
  const json there = convertedObjects(
      handleConversionReview("application/json", review("stable.example.com/v1", objects), faults));
  const json back = convertedObjects(handleConversionReview(
      "application/json", review("stable.example.com/v1beta1", json::array({there[1]})), faults));
  EXPECT_EQ(back[0], objects[1]);
}

TEST(Faults, BatchPositionLeavesConversionsBetweenNonStorageVersionsAlone) {
  const json objects = json::array(
      {widget("v1alpha1", {{"color", "red"}}), widget("v1alpha1", {{"color", "blue"}})});
  const json converted = convertedObjects(handleConversionReview(
      "application/json", review("example.convcheck.dev/v1", objects), {Fault::BatchPosition}));
  for (const auto& object : converted) EXPECT_FALSE(object["metadata"].contains("annotations"));
}

TEST(Faults, SchemaInvalidOutputPadsThePortGoingToV1AndTrimsItOnTheWayBack) {
  const FaultSet faults{Fault::SchemaInvalidOutput};
  const json v1beta1 = cronTabV1beta1("a", "db:80");
  const json v1 = convertOk(v1beta1, "stable.example.com/v1", faults);
  EXPECT_EQ(v1["spec"]["host"], "db");
  EXPECT_EQ(v1["spec"]["port"], " 80");
  EXPECT_EQ(convertOk(v1, "stable.example.com/v1beta1", faults), v1beta1);
}

TEST(Faults, SchemaInvalidOutputMarksAnUnpaddedV1PortSoItComesBackUnpadded) {
  const FaultSet faults{Fault::SchemaInvalidOutput};
  const json v1 = cronTabV1("a", "i");
  const json v1beta1 = convertOk(v1, "stable.example.com/v1beta1", faults);
  EXPECT_EQ(v1beta1["spec"]["hostPort"], "h:1");
  EXPECT_EQ(annotationsOf(v1beta1)[std::string(kUnpaddedPortAnnotation)], "true");
  EXPECT_EQ(convertOk(v1beta1, "stable.example.com/v1", faults), v1);
}

TEST(Faults, SchemaInvalidOutputBreaksThePortPatternOfV1) {
  const testing_support::SchemaValidator v1Schema(
      testing_support::versionSchema(loadYamlAsJson(ExampleWebhook::cronTabCrdPath()), "v1"));
  const json v1 = convertOk(cronTabV1beta1("a", "db:80"), "stable.example.com/v1",
                            {Fault::SchemaInvalidOutput});
  EXPECT_NE(v1Schema.errors(v1), "");
  EXPECT_EQ(v1Schema.errors(convertOk(cronTabV1beta1("a", "db:80"), "stable.example.com/v1", {})),
            "");
}

TEST(Faults, UnknownFieldAddsSpecConvertedByThatPruningRemoves) {
  const json crd = loadYamlAsJson(ExampleWebhook::widgetCrdPath());
  json out = convertOk(widget("v1beta1", {{"colour", "red"}}), "example.convcheck.dev/v1",
                       {Fault::UnknownField});
  EXPECT_EQ(out["spec"][std::string(kUnknownSpecField)], "example-webhook");
  testing_support::pruneUnknownFields(out, testing_support::versionSchema(crd, "v1"));
  EXPECT_EQ(out, widget("v1", {{"colour", "red"}}));
}

TEST(Faults, SkipHubSwapsSmallAndLargeOnTheDirectPathOnly) {
  const FaultSet faults{Fault::SkipHub};
  const json alpha = widget("v1alpha1", {{"color", "red"}, {"count", 2}, {"size", "small"}});
  const json direct = convertOk(alpha, "example.convcheck.dev/v1", faults);
  EXPECT_EQ(direct["spec"], json({{"colour", "red"}, {"replicas", 2}, {"size", "large"}}));
  const json hub = convertOk(alpha, "example.convcheck.dev/v1beta1", faults);
  const json viaHub = convertOk(hub, "example.convcheck.dev/v1", faults);
  EXPECT_EQ(viaHub["spec"]["size"], "small");
  EXPECT_NE(direct, viaHub);
}

TEST(Faults, SkipHubKeepsTheDirectRoundTripsExact) {
  const FaultSet faults{Fault::SkipHub};
  const json alpha =
      widget("v1alpha1", {{"color", "red"}, {"size", "large"}}, {{kStash, R"({"nickname":"n"})"}});
  EXPECT_EQ(convertOk(convertOk(alpha, "example.convcheck.dev/v1", faults),
                      "example.convcheck.dev/v1alpha1", faults),
            alpha);
  const json v1 = widget("v1", {{"colour", "red"}, {"size", "medium"}, {"tags", {"t"}}});
  EXPECT_EQ(convertOk(convertOk(v1, "example.convcheck.dev/v1alpha1", faults),
                      "example.convcheck.dev/v1", faults),
            v1);
}

TEST(PropertyModel, SeesAnEditLostToAStaleStash) {
  const PropertyModel model(loadYamlAsJson(ExampleWebhook::widgetCrdPath()));
  const json v1 = widget("v1", {{"colour", "red"}, {"replicas", 5}, {"nickname", "n"}});
  const json edit = widget("v1beta1", {{"colour", "blue"}, {"replicas", 7}});
  EXPECT_EQ(model.failing({Fault::StaleStash}, {{v1}, "v1beta1", edit}),
            std::set<std::string>{"edit-round-trip"});
  EXPECT_EQ(model.failing({}, {{v1}, "v1beta1", edit}), std::set<std::string>{});
}

TEST(PropertyModel, SeesATransitivityBreakOnlyThroughTheHub) {
  const PropertyModel model(loadYamlAsJson(ExampleWebhook::widgetCrdPath()));
  const json alpha = widget("v1alpha1", {{"color", "red"}, {"size", "small"}});
  const json edit = widget("v1", {{"colour", "blue"}, {"size", "large"}});
  EXPECT_EQ(model.failing({Fault::SkipHub}, {{alpha}, "v1", edit}),
            std::set<std::string>{"transitivity"});
}

}  // namespace
}  // namespace convcheck::example
