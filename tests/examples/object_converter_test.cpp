// Dispatch of one object to its kind's converter, and the refusals that come before it.
#include "examples/webhook/object_converter.h"

#include <gtest/gtest.h>

namespace convcheck::example {
namespace {

using nlohmann::json;

json cronTabV1beta1() {
  return {{"apiVersion", "stable.example.com/v1beta1"},
          {"kind", "CronTab"},
          {"metadata", {{"name", "c"}}},
          {"spec", {{"hostPort", "h:1"}}}};
}

TEST(ObjectConverter, DispatchesCronTabByGroupAndKind) {
  auto out = convertObject(cronTabV1beta1(), "stable.example.com/v1", {});
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.object["spec"], json({{"host", "h"}, {"port", "1"}}));
}

TEST(ObjectConverter, DispatchesWidgetByGroupAndKind) {
  json widget = {{"apiVersion", "example.convcheck.dev/v1alpha1"},
                 {"kind", "Widget"},
                 {"spec", {{"color", "red"}}}};
  auto out = convertObject(widget, "example.convcheck.dev/v1beta1", {});
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.object["spec"], json({{"colour", "red"}}));
}

TEST(ObjectConverter, RefusesAnObjectAlreadyInTheDesiredVersionLikeAgnhost) {
  auto out = convertObject(cronTabV1beta1(), "stable.example.com/v1beta1", {});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error,
            "conversion from a version to itself should not call the webhook: "
            "stable.example.com/v1beta1");
}

TEST(ObjectConverter, RefusesADesiredVersionOfAnotherGroup) {
  auto out = convertObject(cronTabV1beta1(), "example.convcheck.dev/v1", {});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error.find("cannot convert between groups"), std::string::npos) << out.error;
}

TEST(ObjectConverter, RefusesAnUnknownKind) {
  json object = cronTabV1beta1();
  object["kind"] = "Other";
  auto out = convertObject(object, "stable.example.com/v1", {});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error.find("no converter for kind Other"), std::string::npos) << out.error;
}

TEST(ObjectConverter, RefusesAnObjectWithoutKind) {
  json object = cronTabV1beta1();
  object.erase("kind");
  auto out = convertObject(object, "stable.example.com/v1", {});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error.find("kind"), std::string::npos) << out.error;
}

TEST(ObjectConverter, RefusesANonObject) {
  EXPECT_FALSE(convertObject(json::array(), "stable.example.com/v1", {}).ok());
  EXPECT_FALSE(convertObject(nullptr, "stable.example.com/v1", {}).ok());
}

TEST(ObjectConverter, IdentityModeConvertsAnyKindByRewritingApiVersionOnly) {
  json object = {{"apiVersion", "networking.istio.io/v1beta1"},
                 {"kind", "DestinationRule"},
                 {"metadata", {{"name", "reviews"}}},
                 {"spec", {{"host", "reviews.prod.svc.cluster.local"}}}};
  EXPECT_FALSE(convertObject(object, "networking.istio.io/v1", {}).ok());
  auto out = convertObject(object, "networking.istio.io/v1", {}, 0, KindMode::identity);
  ASSERT_TRUE(out.ok()) << out.error;
  json expected = object;
  expected["apiVersion"] = "networking.istio.io/v1";
  EXPECT_EQ(out.object, expected);
  EXPECT_FALSE(
      convertObject(object, "networking.istio.io/v1beta1", {}, 0, KindMode::identity).ok());
  EXPECT_FALSE(convertObject(object, "other.example.com/v1", {}, 0, KindMode::identity).ok());
}

}  // namespace
}  // namespace convcheck::example
