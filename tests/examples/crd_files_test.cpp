// The bundled CRDs: shape an API server accepts, the conversion configuration, and that random
// objects of each version validate against their schema before and after conversion.
#include <functional>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "examples/webhook/object_converter.h"
#include "examples/webhook/widget_converter.h"
#include "tests/examples/crd_schema.h"
#include "tests/examples/random_objects.h"
#include "tests/support/example_webhook.h"

namespace convcheck::example {
namespace {

using nlohmann::json;
using test::ExampleWebhook;
using testing_support::loadYamlAsJson;
using testing_support::SchemaValidator;
using testing_support::versionSchema;

// Structural-schema rules kube-apiserver enforces that a hand-written schema can miss: every
// node has a type (or is int-or-string), `required` names existing properties, the root
// metadata has no further constraints.
void expectStructural(const json& schema, const std::string& path) {
  const bool intOrString = schema.value("x-kubernetes-int-or-string", false);
  EXPECT_TRUE(schema.contains("type") || intOrString) << path << " has no type";
  if (intOrString) {
    EXPECT_EQ(schema["anyOf"], json::parse(R"([{"type":"integer"},{"type":"string"}])")) << path;
  }
  const json required = schema.value("required", json::array());
  for (const auto& name : required)
    EXPECT_TRUE(schema["properties"].contains(name)) << path << " requires missing " << name;
  const json properties = schema.value("properties", json::object());
  for (const auto& [name, child] : properties.items()) expectStructural(child, path + "." + name);
  if (schema.contains("items")) expectStructural(schema["items"], path + "[]");
}

void expectWebhookConversion(const json& crd) {
  const json& conversion = crd["spec"]["conversion"];
  EXPECT_EQ(conversion["strategy"], "Webhook");
  EXPECT_EQ(conversion["webhook"]["conversionReviewVersions"], json({"v1", "v1beta1"}));
  EXPECT_EQ(conversion["webhook"]["clientConfig"]["url"], "https://127.0.0.1:8443/convert");
  EXPECT_EQ(crd["spec"]["preserveUnknownFields"], false);
  int storage = 0;
  for (const auto& version : crd["spec"]["versions"]) {
    storage += version["storage"].get<bool>() ? 1 : 0;
    const json& schema = version["schema"]["openAPIV3Schema"];
    expectStructural(schema, crd["metadata"]["name"].get<std::string>() + "/" +
                                 version["name"].get<std::string>());
    EXPECT_EQ(schema["properties"]["metadata"], json({{"type", "object"}}));
    EXPECT_EQ(schema["required"], json({"spec"}));
    EXPECT_TRUE(schema["properties"].contains("status"));
  }
  EXPECT_EQ(storage, 1);
}

TEST(CronTabCrd, IsAStructuralWebhookConvertedCrdWithV1AsStorage) {
  json crd = loadYamlAsJson(ExampleWebhook::cronTabCrdPath());
  EXPECT_EQ(crd["metadata"]["name"], "crontabs.stable.example.com");
  EXPECT_EQ(crd["spec"]["names"]["kind"], "CronTab");
  EXPECT_EQ(crd["spec"]["scope"], "Namespaced");
  expectWebhookConversion(crd);
  ASSERT_EQ(crd["spec"]["versions"].size(), 2u);
  EXPECT_EQ(crd["spec"]["versions"][0]["name"], "v1beta1");
  EXPECT_EQ(crd["spec"]["versions"][1]["name"], "v1");
  EXPECT_EQ(crd["spec"]["versions"][1]["storage"], true);
}

TEST(WidgetCrd, IsAStructuralWebhookConvertedCrdWithTheHubAsStorage) {
  json crd = loadYamlAsJson(ExampleWebhook::widgetCrdPath());
  EXPECT_EQ(crd["metadata"]["name"], "widgets.example.convcheck.dev");
  expectWebhookConversion(crd);
  ASSERT_EQ(crd["spec"]["versions"].size(), 3u);
  for (const auto& version : crd["spec"]["versions"])
    EXPECT_EQ(version["storage"].get<bool>(), version["name"] == std::string(kWidgetHubVersion));
  const json v1Spec = versionSchema(crd, "v1")["properties"]["spec"]["properties"];
  EXPECT_EQ(v1Spec["tags"]["x-kubernetes-list-type"], "atomic");
  EXPECT_EQ(v1Spec["limits"]["properties"]["cpu"]["x-kubernetes-int-or-string"], true);
}

TEST(CronTabCrd, HostPortPatternRejectsWhatCannotBeSplitLosslessly) {
  SchemaValidator v1beta1(
      versionSchema(loadYamlAsJson(ExampleWebhook::cronTabCrdPath()), "v1beta1"));
  auto withHostPort = [](const std::string& hostPort) {
    return json{{"spec", {{"hostPort", hostPort}}}};
  };
  EXPECT_EQ(v1beta1.errors(withHostPort("db.local:5432")), "");
  for (const char* bad : {"localhost", "a:b:1", "a:123456", "-a:1", "a:", "A:1"})
    EXPECT_NE(v1beta1.errors(withHostPort(bad)), "") << bad;
  EXPECT_NE(v1beta1.errors(json{{"spec", json::object()}}), "");
}

// Checks, for random objects of a random version of `crdPath`, that the object validates
// against its version's schema and its conversion to every other version validates too.
void checkConversionsStaySchemaValid(
    const std::string& crdPath, const std::vector<std::string>& versions,
    const std::function<rc::Gen<json>(const std::string&)>& generator) {
  const json crd = loadYamlAsJson(crdPath);
  const auto from = *rc::gen::elementOf(versions);
  const json object = *generator(from);
  const std::string group = crd["spec"]["group"];
  const std::string inputErrors = SchemaValidator(versionSchema(crd, from)).errors(object);
  RC_LOG() << from << ": " << inputErrors;
  RC_ASSERT(inputErrors.empty());
  for (const auto& to : versions) {
    if (to == from) continue;
    auto out = convertObject(object, group + "/" + to, {});
    RC_ASSERT(out.ok());
    const std::string errors = SchemaValidator(versionSchema(crd, to)).errors(out.object);
    RC_LOG() << from << " -> " << to << ": " << errors;
    RC_ASSERT(errors.empty());
  }
}

RC_GTEST_PROP(CronTabCrd, RandomObjectsAndTheirConversionsAreSchemaValid, ()) {
  checkConversionsStaySchemaValid(ExampleWebhook::cronTabCrdPath(), {"v1beta1", "v1"},
                                  testing_support::genCronTab);
}

RC_GTEST_PROP(WidgetCrd, RandomObjectsAndTheirConversionsAreSchemaValid, ()) {
  checkConversionsStaySchemaValid(ExampleWebhook::widgetCrdPath(), {"v1alpha1", "v1beta1", "v1"},
                                  testing_support::genWidget);
}

}  // namespace
}  // namespace convcheck::example
