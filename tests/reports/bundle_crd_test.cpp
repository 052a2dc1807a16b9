// The CRD a bundle carries: written as an apiextensions.k8s.io/v1 manifest, it reads back through
// the CRD loader as the CRD that was tested (versions, schemas, names, scope, conversion, the
// caBundle's bytes, stored versions), and a damaged copy is refused with the file named.
#include "reports/bundle_crd.h"

#include <gtest/gtest.h>

#include <string>

#include "kube/crd/base64.h"
#include "kube/crd/crd_loader.h"

namespace convcheck {
namespace {

using nlohmann::json;

Crd webhookCrd() {
  Crd crd;
  crd.name = "widgets.example.com";
  crd.group = "example.com";
  crd.kind = "Widget";
  crd.listKind = "WidgetList";
  crd.plural = "widgets";
  crd.namespaced = false;
  const json v1 = {{"type", "object"},
                   {"properties",
                    {{"spec",
                      {{"type", "object"},
                       {"properties", {{"size", {{"type", "integer"}, {"minimum", 1}}}}}}}}}};
  const json v2 = {
      {"type", "object"},
      {"properties",
       {{"spec", {{"type", "object"}, {"properties", {{"replicas", {{"type", "integer"}}}}}}}}}};
  crd.versions = {CrdVersion{"v1", true, false, true, v1, false},
                  CrdVersion{"v2", true, true, false, v2, true}};
  crd.conversionStrategy = "Webhook";
  crd.clientConfig.service = ServiceReference{"system", "widget-webhook", "/convert", 8443};
  crd.clientConfig.caBundlePem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
  crd.conversionReviewVersions = {"v1", "v1beta1"};
  crd.storedVersions = {"v1", "v2"};
  return crd;
}

Crd readBack(const json& manifest) {
  const LoadResult loaded = loadCrdText(manifest.dump(), "crd.json");
  EXPECT_TRUE(loaded.ok()) << (loaded.errors.empty() ? "" : loaded.errors[0].text());
  EXPECT_EQ(loaded.crds.size(), 1u);
  return loaded.crds.empty() ? Crd{} : loaded.crds[0];
}

TEST(BundleCrd, AWebhookCrdReadsBackAsTheCrdThatWasTested) {
  const Crd crd = webhookCrd();
  const Crd back = readBack(crdManifest(crd));
  EXPECT_EQ(back.name, crd.name);
  EXPECT_EQ(back.group, crd.group);
  EXPECT_EQ(back.kind, crd.kind);
  EXPECT_EQ(back.listKind, crd.listKind);
  EXPECT_EQ(back.plural, crd.plural);
  EXPECT_FALSE(back.namespaced);
  ASSERT_EQ(back.versions.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back.versions[i].name, crd.versions[i].name);
    EXPECT_EQ(back.versions[i].served, crd.versions[i].served);
    EXPECT_EQ(back.versions[i].storage, crd.versions[i].storage);
    EXPECT_EQ(back.versions[i].deprecated, crd.versions[i].deprecated);
    EXPECT_EQ(back.versions[i].schema, crd.versions[i].schema);
    EXPECT_EQ(back.versions[i].hasStatusSubresource, crd.versions[i].hasStatusSubresource);
  }
  EXPECT_EQ(back.conversionStrategy, "Webhook");
  ASSERT_TRUE(back.clientConfig.service.has_value());
  EXPECT_EQ(back.clientConfig.service->ns, "system");
  EXPECT_EQ(back.clientConfig.service->name, "widget-webhook");
  EXPECT_EQ(back.clientConfig.service->path, "/convert");
  EXPECT_EQ(back.clientConfig.service->port, 8443);
  EXPECT_EQ(back.clientConfig.caBundlePem, crd.clientConfig.caBundlePem);
  EXPECT_EQ(back.conversionReviewVersions, crd.conversionReviewVersions);
  EXPECT_EQ(back.storedVersions, crd.storedVersions);
}

TEST(BundleCrd, AUrlClientConfigAndNoCaBundleStayThatWay) {
  Crd crd = webhookCrd();
  crd.clientConfig = {};
  crd.clientConfig.url = "https://127.0.0.1:9443/convert";
  const json manifest = crdManifest(crd);
  const json& clientConfig = manifest["spec"]["conversion"]["webhook"]["clientConfig"];
  EXPECT_EQ(clientConfig, json({{"url", "https://127.0.0.1:9443/convert"}}));
  const Crd back = readBack(manifest);
  EXPECT_EQ(back.clientConfig.url, crd.clientConfig.url);
  EXPECT_FALSE(back.clientConfig.service.has_value());
  EXPECT_EQ(back.clientConfig.caBundlePem, "");
}

TEST(BundleCrd, NoStrategyIsWrittenAsNoneWithoutAWebhook) {
  Crd crd = webhookCrd();
  crd.conversionStrategy.clear();
  crd.storedVersions.clear();
  const json manifest = crdManifest(crd);
  EXPECT_EQ(manifest["spec"]["conversion"], json({{"strategy", "None"}}));
  EXPECT_FALSE(manifest.contains("status"));
  EXPECT_EQ(readBack(manifest).conversionStrategy, "None");
}

TEST(BundleCrd, TheCaBundleIsStandardBase64OfEveryLengthAndByte) {
  // Every padding case (0, 1 and 2 bytes over a multiple of three) and every byte value.
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  for (std::size_t length = 0; length <= all.size(); ++length) {
    Crd crd = webhookCrd();
    crd.clientConfig.caBundlePem = all.substr(all.size() - length);
    const json manifest = crdManifest(crd);
    const json& clientConfig = manifest["spec"]["conversion"]["webhook"]["clientConfig"];
    if (length == 0) {
      EXPECT_FALSE(clientConfig.contains("caBundle"));
      continue;
    }
    const std::string encoded = clientConfig["caBundle"].get<std::string>();
    EXPECT_EQ(encoded.size() % 4, 0u) << length;
    std::string why;
    const auto decoded = decodeBase64(encoded, &why);
    ASSERT_TRUE(decoded.has_value()) << length << ": " << why;
    EXPECT_EQ(*decoded, crd.clientConfig.caBundlePem) << length;
  }
  Crd crd = webhookCrd();
  crd.clientConfig.caBundlePem = "Man";
  EXPECT_EQ(crdManifest(crd)["spec"]["conversion"]["webhook"]["clientConfig"]["caBundle"], "TWFu");
  crd.clientConfig.caBundlePem = "Ma";
  EXPECT_EQ(crdManifest(crd)["spec"]["conversion"]["webhook"]["clientConfig"]["caBundle"], "TWE=");
  crd.clientConfig.caBundlePem = "M";
  EXPECT_EQ(crdManifest(crd)["spec"]["conversion"]["webhook"]["clientConfig"]["caBundle"], "TQ==");
}

TEST(BundleCrd, ADamagedCopyIsRefusedWithTheFileNamedAndNeverThrows) {
  const std::string text = crdManifest(webhookCrd()).dump();
  // Every cut of the file, as a copy interrupted part way leaves it.
  for (std::size_t cut = 0; cut < text.size(); cut += 7) {
    LoadResult loaded;
    ASSERT_NO_THROW(loaded = loadCrdText(text.substr(0, cut), "bundle/crd.json")) << cut;
    ASSERT_FALSE(loaded.ok()) << "cut at " << cut;
    EXPECT_NE(loaded.errors[0].text().find("bundle/crd.json"), std::string::npos)
        << loaded.errors[0].text();
  }
  // Valid JSON that is not a CRD the loader can use: a field of the wrong type.
  json manifest = crdManifest(webhookCrd());
  manifest["spec"]["versions"][0]["served"] = "yes";
  const LoadResult loaded = loadCrdText(manifest.dump(), "bundle/crd.json");
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.errors[0].text().find("bundle/crd.json"), std::string::npos)
      << loaded.errors[0].text();
}

}  // namespace
}  // namespace convcheck
