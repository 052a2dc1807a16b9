// Whether the webhook or the CRD schema is the likelier fix of a schema violation in a converted
// object: a value the webhook wrote or dropped, or did not move from where the source holds it, is
// the webhook's; a required field the source version cannot hold, or a value kept unchanged that
// only the target forbids, is the schemas'.
#include "properties/checks/schema_fix_hint.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

using nlohmann::json;

const json kSourceSchema = {
    {"type", "object"},
    {"properties",
     {{"spec",
       {{"type", "object"},
        {"properties",
         {{"port", {{"type", "string"}}},
          {"routes",
           {{"type", "array"},
            {"items",
             {{"type", "object"}, {"properties", {{"host", {{"type", "string"}}}}}}}}}}}}}}}};

json object(json spec) { return {{"apiVersion", "x/v1"}, {"kind", "K"}, {"spec", spec}}; }

std::string hint(const std::string& path, const std::string& message, const json& sent,
                 const json& converted, const json* schema = &kSourceSchema) {
  return schemaFixHint({path, message, "v1", "v2"}, sent, converted, schema).value_or("(none)");
}

TEST(SchemaFixHint, ARequiredFieldTheSourceVersionCannotHoldIsTheSchemas) {
  const std::string h =
      hint("spec.prefix", "Required value", object({{"port", "80"}}), object({{"port", "80"}}));
  EXPECT_EQ(h.rfind("v1 has no field spec.prefix, so no v1 object can give it a value, yet v2 "
                    "requires it: likelier fix: the CRD schema",
                    0),
            0u)
      << h;
}

TEST(SchemaFixHint, ARequiredFieldTheSourceHoldsUnderAnotherNameIsTheWebhooks) {
  // v1 keeps the port in a list and the backend host nested; v2 wants them flat.
  const json schema = {
      {"type", "object"},
      {"properties",
       {{"spec",
         {{"type", "object"},
          {"properties",
           {{"listeners",
             {{"type", "array"},
              {"items", {{"type", "object"}, {"properties", {{"port", {{"type", "integer"}}}}}}}}},
            {"backend",
             {{"type", "object"}, {"properties", {{"host", {{"type", "string"}}}}}}}}}}}}}};
  const json sent = object({{"listeners", {{{"port", 8080}}}}, {"backend", {{"host", "db"}}}});
  EXPECT_EQ(hint("spec.port", "Required value", sent, object(json::object()), &schema),
            "v1 has no field spec.port, but the v1 object holds spec.listeners[0].port = 8080: "
            "likelier fix: the webhook (write it to spec.port)");
  EXPECT_EQ(hint("spec.backendHost", "Required value", sent, object(json::object()), &schema),
            "v1 has no field spec.backendHost, but the v1 object holds spec.backend.host = \"db\": "
            "likelier fix: the webhook (write it to spec.backendHost)");
}

TEST(SchemaFixHint, ARequiredFieldTheSourceObjectHadIsTheWebhooks) {
  const std::string h =
      hint("spec.port", "Required value", object({{"port", "80"}}), object(json::object()));
  EXPECT_EQ(h,
            "the v1 object had spec.port (\"80\") and the converted object has none: likelier "
            "fix: the webhook");
}

TEST(SchemaFixHint, ARequiredFieldOptionalInTheSourceIsTheSchemasOrADefault) {
  const std::string h =
      hint("spec.port", "Required value", object(json::object()), object(json::object()));
  EXPECT_EQ(h.rfind("spec.port is optional in v1 but required in v2", 0), 0u) << h;
  EXPECT_NE(h.find("likelier fix: the CRD schema"), std::string::npos) << h;
}

TEST(SchemaFixHint, AValueTheWebhookChangedIsTheWebhooks) {
  const std::string h = hint("spec.port", "Invalid value: \" 80\": ...", object({{"port", "80"}}),
                             object({{"port", " 80"}}));
  EXPECT_EQ(h,
            "the webhook wrote spec.port = \" 80\" (the v1 object had \"80\"): likelier fix: "
            "the webhook");
  EXPECT_EQ(hint("spec.routes[0].host", "Invalid value", object({{"routes", {json::object()}}}),
                 object({{"routes", {{{"host", "A"}}}}})),
            "the webhook wrote spec.routes[0].host = \"A\" (the v1 object had nothing there): "
            "likelier fix: the webhook");
}

TEST(SchemaFixHint, AValueKeptUnchangedThatOnlyTheTargetForbidsIsTheSchemas) {
  const std::string h = hint("spec.port", "Too long: may not be longer than 2",
                             object({{"port", "8080"}}), object({{"port", "8080"}}));
  EXPECT_EQ(h.rfind("spec.port = \"8080\" is the v1 object's value unchanged: v1's schema allows "
                    "what v2's forbids, so likelier fix: the CRD schema",
                    0),
            0u)
      << h;
}

TEST(SchemaFixHint, NothingIsSaidWithoutAnythingToGoOn) {
  EXPECT_EQ(
      hint("spec.port", "Required value", object(json::object()), object(json::object()), nullptr),
      "(none)");
  EXPECT_FALSE(schemaFixHint({"spec.port", "Required value", "v1", "v1"}, object({}), object({}),
                             &kSourceSchema));
}

}  // namespace
}  // namespace convcheck
