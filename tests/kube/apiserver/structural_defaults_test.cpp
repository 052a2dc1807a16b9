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

}  // namespace
}  // namespace convcheck
