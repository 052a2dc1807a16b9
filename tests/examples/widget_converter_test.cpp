// Widget conversion: hub-and-spoke through v1beta1, renames for v1alpha1, v1-only fields
// stashed in an annotation while the object is in an older version.
#include "examples/webhook/widget_converter.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "tests/examples/random_objects.h"

namespace convcheck::example {
namespace {

using nlohmann::json;
using testing_support::genWidget;

const std::vector<std::string> kVersions = {"v1alpha1", "v1beta1", "v1"};
const std::string kStash(kWidgetStashAnnotation);

json widget(const std::string& version, json spec, json annotations = nullptr,
            json status = nullptr) {
  json object = {{"apiVersion", "example.convcheck.dev/" + version},
                 {"kind", "Widget"},
                 {"metadata", {{"name", "w"}, {"namespace", "default"}, {"uid", "u-1"}}},
                 {"spec", std::move(spec)}};
  if (!annotations.is_null()) object["metadata"]["annotations"] = std::move(annotations);
  if (!status.is_null()) object["status"] = std::move(status);
  return object;
}

json convert(const json& object, const std::string& from, const std::string& to) {
  auto out = convertWidget(object, from, to, {});
  EXPECT_TRUE(out.ok()) << from << " -> " << to << ": " << out.error;
  return out.object;
}

TEST(WidgetConverter, V1alpha1ToHubRenamesColorCountAndReadyCount) {
  json in = widget("v1alpha1", {{"color", "red"}, {"count", 3}, {"size", "small"}}, nullptr,
                   {{"readyCount", 2}, {"phase", "Ready"}});
  json expected = widget("v1beta1", {{"colour", "red"}, {"replicas", 3}, {"size", "small"}},
                         nullptr, {{"readyReplicas", 2}, {"phase", "Ready"}});
  EXPECT_EQ(convert(in, "v1alpha1", "v1beta1"), expected);
}

TEST(WidgetConverter, HubToV1alpha1RenamesBack) {
  json in =
      widget("v1beta1", {{"colour", "blue"}, {"replicas", 7}}, nullptr, {{"readyReplicas", 7}});
  json expected =
      widget("v1alpha1", {{"color", "blue"}, {"count", 7}}, nullptr, {{"readyCount", 7}});
  EXPECT_EQ(convert(in, "v1beta1", "v1alpha1"), expected);
}

TEST(WidgetConverter, V1ToHubStashesV1OnlyFieldsAsJsonInTheAnnotation) {
  json in = widget("v1", {{"colour", "red"},
                          {"nickname", "reddy"},
                          {"tags", {"a", "b"}},
                          {"limits", {{"cpu", 2}, {"memory", "1Gi"}}}});
  json out = convert(in, "v1", "v1beta1");
  EXPECT_EQ(out["spec"], json({{"colour", "red"}}));
  ASSERT_TRUE(out["metadata"]["annotations"].contains(kStash));
  EXPECT_EQ(json::parse(out["metadata"]["annotations"][kStash].get<std::string>()),
            json({{"nickname", "reddy"},
                  {"tags", {"a", "b"}},
                  {"limits", {{"cpu", 2}, {"memory", "1Gi"}}}}));
}

TEST(WidgetConverter, V1ToHubWithNothingToStashAddsNoAnnotation) {
  json out = convert(widget("v1", {{"colour", "red"}, {"replicas", 1}}), "v1", "v1beta1");
  EXPECT_FALSE(out["metadata"].contains("annotations")) << out.dump();
}

TEST(WidgetConverter, V1ToHubLeavesAnEmptyAnnotationsMapAloneWhenNothingIsStashed) {
  json in = widget("v1", {{"colour", "red"}}, json::object());
  json out = convert(in, "v1", "v1beta1");
  EXPECT_EQ(out["metadata"]["annotations"], json::object());
  EXPECT_EQ(convert(out, "v1beta1", "v1"), in);
}

TEST(WidgetConverter, V1ToHubKeepsOtherAnnotationsBesideTheStash) {
  json out = convert(widget("v1", {{"colour", "red"}, {"nickname", "n"}}, {{"team", "a"}}), "v1",
                     "v1beta1");
  EXPECT_EQ(out["metadata"]["annotations"]["team"], "a");
  EXPECT_EQ(out["metadata"]["annotations"][kStash], R"({"nickname":"n"})");
}

TEST(WidgetConverter, HubToV1RestoresTheStashAndRemovesTheEmptiedAnnotations) {
  json in =
      widget("v1beta1", {{"colour", "red"}}, {{kStash, R"({"tags":[],"limits":{"cpu":"500m"}})"}});
  json out = convert(in, "v1beta1", "v1");
  EXPECT_EQ(
      out,
      widget("v1", {{"colour", "red"}, {"tags", json::array()}, {"limits", {{"cpu", "500m"}}}}));
  EXPECT_FALSE(out["metadata"].contains("annotations"));
}

TEST(WidgetConverter, HubToV1KeepsTheOtherAnnotations) {
  json in =
      widget("v1beta1", {{"colour", "red"}}, {{kStash, R"({"nickname":"x"})"}, {"team", "a"}});
  json out = convert(in, "v1beta1", "v1");
  EXPECT_EQ(out["metadata"]["annotations"], json({{"team", "a"}}));
  EXPECT_EQ(out["spec"]["nickname"], "x");
}

TEST(WidgetConverter, V1ToV1alpha1CarriesTheStashThroughTheOlderVersion) {
  json in = widget("v1", {{"colour", "red"}, {"replicas", 4}, {"nickname", "n"}});
  json alpha = convert(in, "v1", "v1alpha1");
  EXPECT_EQ(alpha["spec"], json({{"color", "red"}, {"count", 4}}));
  EXPECT_EQ(alpha["metadata"]["annotations"][kStash], R"({"nickname":"n"})");
  EXPECT_EQ(convert(alpha, "v1alpha1", "v1"), in);
}

TEST(WidgetConverter, V1alpha1ToV1GoesThroughTheHub) {
  json in = widget("v1alpha1", {{"color", "red"}, {"count", 4}}, {{kStash, R"({"tags":["x"]})"}});
  EXPECT_EQ(convert(in, "v1alpha1", "v1"),
            widget("v1", {{"colour", "red"}, {"replicas", 4}, {"tags", {"x"}}}));
}

TEST(WidgetConverter, MalformedStashFailsNamingTheAnnotation) {
  auto out = convertWidget(widget("v1beta1", {{"colour", "red"}}, {{kStash, "{not json"}}),
                           "v1beta1", "v1", {});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error.find(kStash), std::string::npos) << out.error;
}

TEST(WidgetConverter, NonObjectSpecFails) {
  auto out = convertWidget(widget("v1alpha1", "red"), "v1alpha1", "v1beta1", {});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error.find("spec"), std::string::npos) << out.error;
}

TEST(WidgetConverter, HandWrittenObjectsRoundTripForEveryOrderedPair) {
  const std::vector<json> objects = {
      widget("v1alpha1", {{"color", "red"}, {"count", 1000}, {"size", "large"}}, {{"team", "a"}},
             {{"readyCount", 1}, {"phase", "Pending"}}),
      widget("v1beta1", {{"colour", "green"}}, {{kStash, R"({"nickname":"g"})"}}),
      widget("v1",
             {{"colour", "blue"},
              {"replicas", 0},
              {"nickname", ""},
              {"tags", json::array()},
              {"limits", json::object()}},
             {{"team", "b"}}, {{"readyReplicas", 0}}),
      widget("v1", {{"colour", "x"}}),
  };
  for (const auto& original : objects) {
    const std::string from = original["apiVersion"].get<std::string>().substr(22);
    for (const auto& to : kVersions) {
      if (to == from) continue;
      EXPECT_EQ(convert(convert(original, from, to), to, from), original)
          << from << " -> " << to << " -> " << from << " of " << original.dump();
    }
  }
}

RC_GTEST_PROP(WidgetConverter, RandomObjectsRoundTripForEveryOrderedPair, ()) {
  const auto from = *rc::gen::elementOf(kVersions);
  const auto to = *rc::gen::suchThat(rc::gen::elementOf(kVersions),
                                     [&](const std::string& v) { return v != from; });
  const json original = *genWidget(from);
  auto there = convertWidget(original, from, to, {});
  RC_ASSERT(there.ok());
  RC_ASSERT(there.object["apiVersion"] == "example.convcheck.dev/" + to);
  auto back = convertWidget(there.object, to, from, {});
  RC_ASSERT(back.ok());
  RC_ASSERT(back.object == original);
}

RC_GTEST_PROP(WidgetConverter, RandomObjectsRoundTripThroughTheHub, ()) {
  const auto from = *rc::gen::element<std::string>("v1alpha1", "v1");
  const auto to = from == "v1" ? std::string("v1alpha1") : std::string("v1");
  const json original = *genWidget(from);
  // from -> hub -> to -> hub -> from, as stored objects travel.
  json step = original;
  const std::vector<std::pair<std::string, std::string>> path = {
      {from, "v1beta1"}, {"v1beta1", to}, {to, "v1beta1"}, {"v1beta1", from}};
  for (const auto& [a, b] : path) {
    auto out = convertWidget(step, a, b, {});
    RC_ASSERT(out.ok());
    step = out.object;
  }
  RC_ASSERT(step == original);
}

RC_GTEST_PROP(WidgetConverter, ConvertingDirectlyEqualsConvertingThroughAnyVersion, ()) {
  const auto a = *rc::gen::elementOf(kVersions);
  const auto b = *rc::gen::elementOf(kVersions);
  const auto c = *rc::gen::elementOf(kVersions);
  const json original = *genWidget(a);
  auto direct = convertWidget(original, a, c, {});
  auto first = convertWidget(original, a, b, {});
  RC_ASSERT(direct.ok() && first.ok());
  auto second = convertWidget(first.object, b, c, {});
  RC_ASSERT(second.ok());
  RC_ASSERT(second.object == direct.object);
}

}  // namespace
}  // namespace convcheck::example
