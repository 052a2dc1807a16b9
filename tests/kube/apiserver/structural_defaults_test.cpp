// Structural defaulting as kube-apiserver applies it before sending an object to a webhook
// (apiextensions-apiserver pkg/apiserver/schema/defaulting/algorithm.go).
#include <gtest/gtest.h>

#include "kube/apiserver/structural_defaults.h"

namespace convcheck {
namespace {

using nlohmann::json;

const json kSchema = json::parse(R"({
  "type": "object",
  "properties": {
    "spec": {
      "type": "object",
      "properties": {
        "size": {"type": "string", "default": "medium"},
        "opt": {"type": "string", "nullable": true, "default": "x"},
        "limits": {"type": "object", "default": {},
                   "properties": {"cpu": {"type": "integer", "default": 2}}},
        "ports": {"type": "array", "items": {"type": "object",
                  "properties": {"protocol": {"type": "string", "default": "TCP"}}}},
        "byName": {"type": "object", "additionalProperties": {"type": "object",
                   "properties": {"weight": {"type": "integer", "default": 1}}}}
      }
    }
  }
})");

TEST(StructuralDefaults, FillsAnAbsentPropertyFromItsDefault) {
  json o = {{"spec", json::object()}};
  EXPECT_TRUE(applyStructuralDefaults(o, kSchema));
  EXPECT_EQ(o["spec"]["size"], "medium");
}

TEST(StructuralDefaults, KeepsAValueThatIsPresent) {
  json o = {{"spec", {{"size", "large"}, {"limits", {{"cpu", 7}}}}}};
  applyStructuralDefaults(o, kSchema);
  EXPECT_EQ(o["spec"]["size"], "large");
  EXPECT_EQ(o["spec"]["limits"]["cpu"], 7);
}

TEST(StructuralDefaults, RecursesIntoADefaultedValue) {
  json o = {{"spec", json::object()}};
  applyStructuralDefaults(o, kSchema);
  EXPECT_EQ(o["spec"]["limits"], json({{"cpu", 2}}));
}

TEST(StructuralDefaults, ReplacesANonNullableNullButKeepsANullableOne) {
  json o = {{"spec", {{"size", nullptr}, {"opt", nullptr}}}};
  applyStructuralDefaults(o, kSchema);
  EXPECT_EQ(o["spec"]["size"], "medium");
  EXPECT_TRUE(o["spec"]["opt"].is_null());
}

TEST(StructuralDefaults, DefaultsArrayItemsAndMapValues) {
  json o = {
      {"spec",
       {{"ports", {json::object(), {{"protocol", "UDP"}}}}, {"byName", {{"a", json::object()}}}}}};
  applyStructuralDefaults(o, kSchema);
  EXPECT_EQ(o["spec"]["ports"][0]["protocol"], "TCP");
  EXPECT_EQ(o["spec"]["ports"][1]["protocol"], "UDP");
  EXPECT_EQ(o["spec"]["byName"]["a"]["weight"], 1);
}

TEST(StructuralDefaults, DoesNotCreateAnAbsentParent) {
  json o = json::object();
  EXPECT_FALSE(applyStructuralDefaults(o, kSchema));
  EXPECT_EQ(o, json::object());
}

TEST(StructuralDefaults, IsIdempotent) {
  json o = {{"spec", json::object()}};
  applyStructuralDefaults(o, kSchema);
  json once = o;
  EXPECT_FALSE(applyStructuralDefaults(o, kSchema));
  EXPECT_EQ(o, once);
}

// needsStructuralDefaults answers, without changing the object, what applyStructuralDefaults
// would return: checked on each shape the tests above default, and on their defaulted results.
TEST(StructuralDefaults, NeedsDefaultsAgreesWithApplyingThem) {
  const json opt = nullptr;  // nullable: kept as null, so only the other fields decide
  const std::vector<json> objects = {
      json::object(),
      {{"spec", json::object()}},
      {{"spec", {{"size", "large"}, {"opt", opt}, {"limits", {{"cpu", 7}}}}}},
      {{"spec", {{"size", "s"}, {"opt", opt}, {"limits", json::object()}}}},
      {{"spec", {{"size", nullptr}, {"opt", opt}, {"limits", {{"cpu", 1}}}}}},
      {{"spec", {{"size", "s"}, {"opt", opt}, {"limits", {{"cpu", 1}}}, {"ports", json::array()}}}},
      {{"spec",
        {{"size", "s"},
         {"opt", opt},
         {"limits", {{"cpu", 1}}},
         {"ports", {{{"protocol", "UDP"}}, json::object()}}}}},
      {{"spec",
        {{"size", "s"},
         {"opt", opt},
         {"limits", {{"cpu", 1}}},
         {"byName", {{"a", json::object()}}}}}},
      {{"spec",
        {{"size", "s"},
         {"opt", opt},
         {"limits", {{"cpu", 1}}},
         {"byName", {{"a", {{"weight", 3}}}}}}}},
  };
  int needing = 0;
  for (const auto& original : objects) {
    json o = original;
    const bool needs = needsStructuralDefaults(o, kSchema);
    EXPECT_EQ(o, original) << "needsStructuralDefaults changed " << original;
    EXPECT_EQ(needs, applyStructuralDefaults(o, kSchema)) << original;
    EXPECT_FALSE(needsStructuralDefaults(o, kSchema)) << "after defaulting: " << o;
    needing += needs;
  }
  EXPECT_EQ(needing, 5);
}

}  // namespace
}  // namespace convcheck
