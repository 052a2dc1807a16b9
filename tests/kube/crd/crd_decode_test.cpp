// Normalising v1 and v1beta1 CRDs into the Crd model, with the API's defaults.
#include "kube/crd/crd_decode.h"

#include <gtest/gtest.h>

#include "kube/crd/crd_loader.h"
#include "tests/kube/crd/crd_fixtures.h"

namespace convcheck {
namespace {

using nlohmann::json;
using testing::describe;
using testing::errorAt;
using testing::kV1beta1WebhookCrd;
using testing::kV1WebhookCrd;
using testing::loadOne;
using testing::warned;
using testing::with;

// "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n" in base64.
const std::string kPem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const std::string kPemBase64 =
    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=";

TEST(CrdDecode, V1CrdKeepsNamesScopeAndVersionsInSpecOrder) {
  const Crd crd = loadOne(kV1WebhookCrd);
  EXPECT_EQ(crd.name, "widgets.example.com");
  EXPECT_EQ(crd.group, "example.com");
  EXPECT_EQ(crd.kind, "Widget");
  EXPECT_EQ(crd.plural, "widgets");
  EXPECT_EQ(crd.listKind, "WidgetList");  // defaulted from kind
  EXPECT_TRUE(crd.namespaced);
  ASSERT_EQ(crd.versions.size(), 2u);
  EXPECT_EQ(crd.versions[0].name, "v1alpha1");
  EXPECT_FALSE(crd.versions[0].storage);
  EXPECT_EQ(crd.versions[1].name, "v1");
  EXPECT_TRUE(crd.versions[1].storage);
  EXPECT_TRUE(crd.versions[1].served);
  EXPECT_EQ(crd.apiVersion("v1"), "example.com/v1");
  EXPECT_EQ(crd.source.file, "crds.yaml");
  EXPECT_EQ(crd.source.document, 1);
}

TEST(CrdDecode, V1VersionSchemasAreTheirOpenApiV3Schemas) {
  const Crd crd = loadOne(kV1WebhookCrd);
  EXPECT_EQ(crd.versions[0].schema["properties"]["spec"]["properties"]["size"],
            json({{"type", "integer"}}));
  EXPECT_EQ(crd.versions[1].schema, json({{"type", "object"}}));
}

TEST(CrdDecode, StatusSubresourceIsPerVersionInV1) {
  const Crd crd = loadOne(kV1WebhookCrd);
  EXPECT_FALSE(crd.versions[0].hasStatusSubresource);
  EXPECT_TRUE(crd.versions[1].hasStatusSubresource);
}

TEST(CrdDecode, DeprecatedAndUnservedVersionsAreKept) {
  const Crd crd = loadOne(with(kV1WebhookCrd, "  - name: v1alpha1\n    served: true\n",
                               "  - name: v1alpha1\n    served: false\n    deprecated: true\n"));
  EXPECT_FALSE(crd.versions[0].served);
  EXPECT_TRUE(crd.versions[0].deprecated);
  EXPECT_FALSE(crd.versions[1].deprecated);
}

TEST(CrdDecode, ClusterScopeIsNotNamespaced) {
  EXPECT_FALSE(loadOne(with(kV1WebhookCrd, "scope: Namespaced", "scope: Cluster")).namespaced);
}

TEST(CrdDecode, V1WebhookSettingsAreRead) {
  const Crd crd = loadOne(kV1WebhookCrd);
  EXPECT_EQ(crd.conversionStrategy, "Webhook");
  EXPECT_EQ(crd.clientConfig.url, "https://127.0.0.1:9443/convert");
  EXPECT_FALSE(crd.clientConfig.service);
  EXPECT_EQ(crd.conversionReviewVersions, (std::vector<std::string>{"v1", "v1beta1"}));
  EXPECT_FALSE(crd.preserveUnknownFields);
}

TEST(CrdDecode, ServiceReferenceIsReadAndPortDefaultsTo443) {
  const Crd crd = loadOne(with(kV1WebhookCrd, "        url: https://127.0.0.1:9443/convert\n",
                               "        service:\n          namespace: ns\n          name: svc\n"
                               "          path: /convert\n"));
  ASSERT_TRUE(crd.clientConfig.service);
  EXPECT_EQ(crd.clientConfig.service->ns, "ns");
  EXPECT_EQ(crd.clientConfig.service->name, "svc");
  EXPECT_EQ(crd.clientConfig.service->path, "/convert");
  EXPECT_EQ(crd.clientConfig.service->port, 443);
  EXPECT_TRUE(crd.clientConfig.url.empty());
}

TEST(CrdDecode, ExplicitServicePortIsKept) {
  const Crd crd = loadOne(with(kV1WebhookCrd, "        url: https://127.0.0.1:9443/convert\n",
                               "        service: {namespace: ns, name: svc, port: 8443}\n"));
  ASSERT_TRUE(crd.clientConfig.service);
  EXPECT_EQ(crd.clientConfig.service->port, 8443);
}

TEST(CrdDecode, CaBundleIsBase64DecodedToPem) {
  const Crd crd = loadOne(
      with(kV1WebhookCrd, "        url: https://127.0.0.1:9443/convert\n",
           "        url: https://127.0.0.1:9443/convert\n        caBundle: " + kPemBase64 + "\n"));
  EXPECT_EQ(crd.clientConfig.caBundlePem, kPem);
}

TEST(CrdDecode, BadBase64CaBundleIsAnErrorNamingTheField) {
  LoadResult r = loadCrdText(with(kV1WebhookCrd, "        url: https://127.0.0.1:9443/convert\n",
                                  "        url: https://127.0.0.1:9443/convert\n"
                                  "        caBundle: \"not base64!\"\n"),
                             "crds.yaml");
  const LoadError* e = errorAt(r, "spec.conversion.webhook.clientConfig.caBundle");
  ASSERT_NE(e, nullptr) << describe(r);
  EXPECT_NE(e->message.find("illegal base64 data at input byte 3"), std::string::npos);
  EXPECT_TRUE(r.crds.empty());
}

TEST(CrdDecode, WhitespaceOnlyCaBundleCountsAsEmpty) {
  const Crd blank = loadOne(with(kV1WebhookCrd, "        url: https://127.0.0.1:9443/convert\n",
                                 "        url: https://127.0.0.1:9443/convert\n"
                                 "        caBundle: \"  \"\n"));
  EXPECT_TRUE(blank.clientConfig.caBundlePem.empty());
  // base64 of " \n\t" decodes to whitespace only: also empty.
  const Crd decodedBlank =
      loadOne(with(kV1WebhookCrd, "        url: https://127.0.0.1:9443/convert\n",
                   "        url: https://127.0.0.1:9443/convert\n"
                   "        caBundle: IAoJ\n"));
  EXPECT_TRUE(decodedBlank.clientConfig.caBundlePem.empty());
}

TEST(CrdDecode, CaBundleWithoutCertificateWarns) {
  LoadResult r = loadCrdText(with(kV1WebhookCrd, "        url: https://127.0.0.1:9443/convert\n",
                                  "        url: https://127.0.0.1:9443/convert\n"
                                  "        caBundle: aGVsbG8=\n"),
                             "crds.yaml");
  EXPECT_TRUE(r.ok()) << describe(r);
  EXPECT_TRUE(warned(r, "contains no PEM certificate")) << describe(r);
}

TEST(CrdDecode, StoredVersionsComeFromStatus) {
  const Crd crd = loadOne(kV1WebhookCrd + "status:\n  storedVersions: [v1alpha1, v1]\n");
  EXPECT_EQ(crd.storedVersions, (std::vector<std::string>{"v1alpha1", "v1"}));
}

TEST(CrdDecode, V1SchemaIsRequired) {
  LoadResult r = loadCrdText(
      with(kV1WebhookCrd,
           "    schema:\n      openAPIV3Schema:\n        type: object\n    subresources:",
           "    subresources:"),
      "crds.yaml");
  const LoadError* e = errorAt(r, "spec.versions[1].schema.openAPIV3Schema");
  ASSERT_NE(e, nullptr) << describe(r);
  EXPECT_EQ(e->message, "Required value: schemas are required");
}

TEST(CrdDecode, SchemaThatIsNotAnObjectIsAnError) {
  LoadResult r = loadCrdText(
      with(kV1WebhookCrd, "      openAPIV3Schema:\n        type: object\n    subresources:",
           "      openAPIV3Schema: [type, object]\n    subresources:"),
      "crds.yaml");
  const LoadError* e = errorAt(r, "spec.versions[1].schema.openAPIV3Schema");
  ASSERT_NE(e, nullptr) << describe(r);
  EXPECT_NE(e->message.find("must be a JSON object"), std::string::npos) << e->message;
  EXPECT_TRUE(r.crds.empty());
}

TEST(CrdDecode, WrongFieldTypeIsAnErrorNamingTheField) {
  LoadResult r = loadCrdText(with(kV1WebhookCrd, "    served: true\n    storage: true\n",
                                  "    served: \"yes\"\n    storage: true\n"),
                             "crds.yaml");
  const LoadError* e = errorAt(r, "spec.versions[1].served");
  ASSERT_NE(e, nullptr) << describe(r);
  EXPECT_EQ(e->message, "expected a boolean, got a string (\"yes\")");
}

TEST(CrdDecode, V1beta1TopLevelValidationAppliesToEveryVersion) {
  const Crd crd = loadOne(kV1beta1WebhookCrd);
  ASSERT_EQ(crd.versions.size(), 2u);
  for (const auto& v : crd.versions) {
    EXPECT_EQ(v.schema["properties"]["spec"], json({{"type", "object"}})) << v.name;
    EXPECT_TRUE(v.hasStatusSubresource) << v.name;  // top-level subresources
  }
  EXPECT_FALSE(crd.namespaced);
}

TEST(CrdDecode, V1beta1PerVersionSchemaIsUsedWhenThereIsNoTopLevelOne) {
  std::string text =
      with(kV1beta1WebhookCrd,
           "  validation:\n    openAPIV3Schema:\n      type: object\n      properties:"
           "\n        spec:\n          type: object\n",
           "");
  text =
      with(text, "  - name: v1\n    served: true\n    storage: true\n",
           "  - name: v1\n    served: true\n    storage: true\n    schema:\n"
           "      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}\n");
  LoadResult r = loadCrdText(text, "crds.yaml");
  ASSERT_TRUE(r.ok()) << describe(r);
  const Crd& crd = r.crds.at(0);
  EXPECT_TRUE(crd.versions[0].schema.is_null());  // no schema anywhere for v1beta1
  EXPECT_EQ(crd.versions[1].schema["x-kubernetes-preserve-unknown-fields"], json(true));
  EXPECT_TRUE(warned(r, "version \"v1beta1\" has no schema")) << describe(r);
}

TEST(CrdDecode, V1beta1TopLevelAndPerVersionSchemaAreMutuallyExclusive) {
  LoadResult r =
      loadCrdText(with(kV1beta1WebhookCrd, "  - name: v1\n    served: true\n    storage: true\n",
                       "  - name: v1\n    served: true\n    storage: true\n    schema:\n"
                       "      openAPIV3Schema: {type: object}\n"),
                  "crds.yaml");
  const LoadError* e = errorAt(r, "spec.versions[1].schema");
  ASSERT_NE(e, nullptr) << describe(r);
  EXPECT_EQ(e->message, "Forbidden: top-level and per-version schemas are mutually exclusive");
}

TEST(CrdDecode, V1beta1SingleVersionFieldBecomesTheOnlyVersion) {
  std::string text = with(kV1beta1WebhookCrd,
                          "  versions:\n  - name: v1beta1\n    served: true\n    storage: false\n"
                          "  - name: v1\n    served: true\n    storage: true\n",
                          "  version: v1\n");
  text =
      with(text, "  conversion:\n    strategy: Webhook\n", "  conversion:\n    strategy: None\n");
  text = with(text,
              "    webhookClientConfig:\n      service:\n        namespace: gadgets\n"
              "        name: gadget-webhook\n        path: /convert\n",
              "");
  const Crd crd = loadOne(text);
  ASSERT_EQ(crd.versions.size(), 1u);
  EXPECT_EQ(crd.versions[0].name, "v1");
  EXPECT_TRUE(crd.versions[0].served);
  EXPECT_TRUE(crd.versions[0].storage);
  EXPECT_TRUE(crd.versions[0].schema.is_object());
  EXPECT_EQ(crd.conversionStrategy, "None");
  EXPECT_TRUE(crd.conversionReviewVersions.empty());
}

TEST(CrdDecode, V1beta1WebhookClientConfigAndDefaultReviewVersions) {
  const Crd crd = loadOne(kV1beta1WebhookCrd);
  EXPECT_EQ(crd.conversionStrategy, "Webhook");
  ASSERT_TRUE(crd.clientConfig.service);
  EXPECT_EQ(crd.clientConfig.service->ns, "gadgets");
  EXPECT_EQ(crd.clientConfig.service->name, "gadget-webhook");
  EXPECT_EQ(crd.clientConfig.service->port, 443);
  EXPECT_EQ(crd.conversionReviewVersions, (std::vector<std::string>{"v1beta1"}));
}

TEST(CrdDecode, V1beta1ExplicitReviewVersionsAreKept) {
  const Crd crd = loadOne(with(kV1beta1WebhookCrd, "    strategy: Webhook\n",
                               "    strategy: Webhook\n    conversionReviewVersions: [v1]\n"));
  EXPECT_EQ(crd.conversionReviewVersions, (std::vector<std::string>{"v1"}));
}

TEST(CrdDecode, V1beta1PreserveUnknownFieldsDefaultsToTrueAndBlocksTheWebhook) {
  LoadResult r =
      loadCrdText(with(kV1beta1WebhookCrd, "  preserveUnknownFields: false\n", ""), "crds.yaml");
  ASSERT_EQ(r.errors.size(), 1u) << describe(r);
  EXPECT_EQ(r.errors[0].text(),
            "crds.yaml, document 1, spec.conversion.strategy: Invalid value: \"Webhook\": must be "
            "None if spec.preserveUnknownFields is true");
}

TEST(CrdDecode, V1beta1PreserveUnknownFieldsDefaultIsVisibleWithoutWebhook) {
  std::string text = with(kV1beta1WebhookCrd, "  preserveUnknownFields: false\n", "");
  text = with(text, "    strategy: Webhook\n", "    strategy: None\n");
  text = with(text,
              "    webhookClientConfig:\n      service:\n        namespace: gadgets\n"
              "        name: gadget-webhook\n        path: /convert\n",
              "");
  EXPECT_TRUE(loadOne(text).preserveUnknownFields);
}

TEST(CrdDecode, V1beta1PerVersionSubresources) {
  std::string text = with(kV1beta1WebhookCrd, "  subresources:\n    status: {}\n", "");
  text =
      with(text, "  - name: v1\n    served: true\n    storage: true\n",
           "  - name: v1\n    served: true\n    storage: true\n    subresources: {status: {}}\n");
  const Crd crd = loadOne(text);
  EXPECT_FALSE(crd.versions[0].hasStatusSubresource);
  EXPECT_TRUE(crd.versions[1].hasStatusSubresource);
}

TEST(CrdDecode, V1beta1TopLevelAndPerVersionSubresourcesAreMutuallyExclusive) {
  LoadResult r = loadCrdText(
      with(kV1beta1WebhookCrd, "  - name: v1\n    served: true\n    storage: true\n",
           "  - name: v1\n    served: true\n    storage: true\n    subresources: {status: {}}\n"),
      "crds.yaml");
  ASSERT_NE(errorAt(r, "spec.versions[1].subresources"), nullptr) << describe(r);
}

TEST(CrdDecode, V1beta1SpecVersionNotMatchingTheFirstVersionWarns) {
  LoadResult r = loadCrdText(
      with(kV1beta1WebhookCrd, "  versions:\n", "  version: v1\n  versions:\n"), "crds.yaml");
  EXPECT_TRUE(r.ok()) << describe(r);
  EXPECT_TRUE(warned(r, "spec.version: Invalid value: \"v1\": must match the first version"))
      << describe(r);
}

TEST(CrdDecode, DecodeReportsFieldPathsWithTheGivenPrefix) {
  const json object = json::parse(R"({"apiVersion":"apiextensions.k8s.io/v1",
    "kind":"CustomResourceDefinition","metadata":{"name":"a.b.c"},"spec":{"group":5}})");
  CrdDecodeResult r = decodeCrd(object, SourceLocation{"list.yaml", 3}, "items[2].");
  EXPECT_FALSE(r.crd);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].field, "items[2].spec.group");
  EXPECT_EQ(r.errors[0].where.document, 3);
}

}  // namespace
}  // namespace convcheck
