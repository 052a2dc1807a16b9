// kube-apiserver's CRD validation rules that convcheck applies, each with the field it names.
#include "kube/crd/crd_validate.h"

#include <gtest/gtest.h>

#include "kube/crd/crd_loader.h"
#include "tests/kube/crd/crd_fixtures.h"

namespace convcheck {
namespace {

using testing::describe;
using testing::errorAt;
using testing::kV1beta1WebhookCrd;
using testing::kV1WebhookCrd;
using testing::warned;
using testing::with;

const std::string kUrlLine = "        url: https://127.0.0.1:9443/convert\n";

LoadResult load(const std::string& text) { return loadCrdText(text, "crds.yaml"); }

// Loads `text`, expects an error at `field` whose message contains `part`, and no CRD.
void expectError(const std::string& text, const std::string& field, const std::string& part) {
  LoadResult r = load(text);
  const LoadError* e = errorAt(r, field);
  ASSERT_NE(e, nullptr) << "no error at " << field << "\n" << describe(r);
  EXPECT_NE(e->message.find(part), std::string::npos) << e->message;
  EXPECT_TRUE(r.crds.empty());
}

TEST(CrdValidate, ValidFixturesHaveNoErrorsOrWarnings) {
  for (const std::string* text : {&kV1WebhookCrd, &kV1beta1WebhookCrd}) {
    LoadResult r = load(*text);
    EXPECT_TRUE(r.ok()) << describe(r);
    EXPECT_TRUE(r.warnings.empty()) << describe(r);
    EXPECT_EQ(r.crds.size(), 1u);
  }
}

TEST(CrdValidate, MissingGroupIsAnError) {
  expectError(with(kV1WebhookCrd, "  group: example.com\n", ""), "spec.group", "Required value");
}

TEST(CrdValidate, GroupWithoutADotIsAnError) {
  expectError(with(with(kV1WebhookCrd, "  group: example.com\n", "  group: example\n"),
                   "name: widgets.example.com", "name: widgets.example"),
              "spec.group", "should be a domain with at least one dot");
}

TEST(CrdValidate, MissingKindIsAnError) {
  expectError(with(kV1WebhookCrd, "    kind: Widget\n", ""), "spec.names.kind", "Required value");
}

TEST(CrdValidate, MissingPluralIsAnError) {
  expectError(with(kV1WebhookCrd, "    plural: widgets\n", ""), "spec.names.plural",
              "Required value");
}

TEST(CrdValidate, MissingMetadataNameIsAnError) {
  expectError(with(kV1WebhookCrd, "  name: widgets.example.com\n", "  labels: {a: b}\n"),
              "metadata.name", "Required value");
}

TEST(CrdValidate, NameMustBePluralDotGroup) {
  expectError(with(kV1WebhookCrd, "name: widgets.example.com", "name: gizmos.example.com"),
              "metadata.name", "must be spec.names.plural+\".\"+spec.group");
}

TEST(CrdValidate, MissingVersionsIsAnError) {
  const std::string text = kV1WebhookCrd.substr(0, kV1WebhookCrd.find("  versions:\n")) +
                           kV1WebhookCrd.substr(kV1WebhookCrd.find("  conversion:\n"));
  expectError(text, "spec.versions", "Required value");
}

TEST(CrdValidate, MissingScopeIsAnErrorInV1) {
  expectError(with(kV1WebhookCrd, "  scope: Namespaced\n", ""), "spec.scope", "Required value");
}

TEST(CrdValidate, UnknownScopeIsAnError) {
  expectError(with(kV1WebhookCrd, "scope: Namespaced", "scope: Global"), "spec.scope",
              "Unsupported value: \"Global\"");
}

TEST(CrdValidate, NoStorageVersionIsAnError) {
  expectError(with(kV1WebhookCrd, "    served: true\n    storage: true\n",
                   "    served: true\n    storage: false\n"),
              "spec.versions", "must have exactly one version marked as storage version");
}

TEST(CrdValidate, SecondStorageVersionIsAnErrorNamingIt) {
  expectError(with(kV1WebhookCrd, "    storage: false\n", "    storage: true\n"),
              "spec.versions[1].storage",
              "must have exactly one version marked as storage version; spec.versions[0] "
              "(v1alpha1) is one already");
}

TEST(CrdValidate, DuplicateVersionNamesAreAnError) {
  expectError(with(kV1WebhookCrd, "  - name: v1alpha1\n", "  - name: v1\n"),
              "spec.versions[1].name", "Duplicate value: \"v1\"");
}

TEST(CrdValidate, VersionNameMustBeADns1035Label) {
  expectError(with(kV1WebhookCrd, "  - name: v1alpha1\n", "  - name: V1Alpha1\n"),
              "spec.versions[0].name", "a DNS-1035 label must consist of lower case");
}

TEST(CrdValidate, VersionNameOfMoreThan63BytesIsAnError) {
  const std::string name = "v" + std::string(63, 'a');
  expectError(with(kV1WebhookCrd, "  - name: v1alpha1\n", "  - name: " + name + "\n"),
              "spec.versions[0].name",
              "Invalid value: \"" + name + "\": must be no more than 63 bytes");
}

TEST(CrdValidate, UnknownStrategyIsAnError) {
  expectError(with(kV1WebhookCrd, "strategy: Webhook", "strategy: Magic"),
              "spec.conversion.strategy",
              "Unsupported value: \"Magic\": supported values: \"None\", \"Webhook\"");
}

TEST(CrdValidate, WebhookWithPreserveUnknownFieldsUsesTheApiServerMessage) {
  LoadResult r = load(with(kV1WebhookCrd, "  scope: Namespaced\n",
                           "  scope: Namespaced\n  preserveUnknownFields: true\n"));
  const LoadError* e = errorAt(r, "spec.conversion.strategy");
  ASSERT_NE(e, nullptr) << describe(r);
  EXPECT_EQ(e->message,
            "Invalid value: \"Webhook\": must be None if spec.preserveUnknownFields is true");
}

TEST(CrdValidate, EmptyConversionReviewVersionsIsAnError) {
  expectError(with(kV1WebhookCrd, "[\"v1\", \"v1beta1\"]", "[]"),
              "spec.conversion.webhook.conversionReviewVersions", "Required value");
}

TEST(CrdValidate, MissingConversionReviewVersionsIsAnErrorInV1) {
  expectError(with(kV1WebhookCrd, "      conversionReviewVersions: [\"v1\", \"v1beta1\"]\n", ""),
              "spec.conversion.webhook.conversionReviewVersions", "Required value");
}

TEST(CrdValidate, ConversionReviewVersionsWithoutV1OrV1beta1IsAnError) {
  expectError(with(kV1WebhookCrd, "[\"v1\", \"v1beta1\"]", "[\"v2\"]"),
              "spec.conversion.webhook.conversionReviewVersions",
              "Invalid value: [\"v2\"]: must include at least one of v1, v1beta1");
}

TEST(CrdValidate, UnknownReviewVersionNextToV1IsAccepted) {
  LoadResult r = load(with(kV1WebhookCrd, "[\"v1\", \"v1beta1\"]", "[\"v2\", \"v1\"]"));
  EXPECT_TRUE(r.ok()) << describe(r);
}

TEST(CrdValidate, DuplicateReviewVersionIsAnError) {
  expectError(with(kV1WebhookCrd, "[\"v1\", \"v1beta1\"]", "[\"v1\", \"v1\"]"),
              "spec.conversion.webhook.conversionReviewVersions[1]", "duplicate version");
}

TEST(CrdValidate, V1beta1ReviewVersionsAreCheckedAtTheirV1beta1Path) {
  expectError(with(kV1beta1WebhookCrd, "    strategy: Webhook\n",
                   "    strategy: Webhook\n    conversionReviewVersions: [v3]\n"),
              "spec.conversion.conversionReviewVersions", "must include at least one of");
}

TEST(CrdValidate, WebhookWithoutClientConfigIsAnError) {
  expectError(with(kV1WebhookCrd, "      clientConfig:\n" + kUrlLine, ""),
              "spec.conversion.webhook.clientConfig",
              "Required value: required when strategy is set to Webhook");
}

TEST(CrdValidate, ClientConfigWithBothUrlAndServiceIsAnError) {
  expectError(
      with(kV1WebhookCrd, kUrlLine, kUrlLine + "        service: {namespace: a, name: b}\n"),
      "spec.conversion.webhook.clientConfig", "exactly one of url or service is required");
}

TEST(CrdValidate, ClientConfigWithNeitherUrlNorServiceIsAnError) {
  expectError(with(kV1WebhookCrd, kUrlLine, "        caBundle: \"\"\n"),
              "spec.conversion.webhook.clientConfig", "exactly one of url or service is required");
}

TEST(CrdValidate, V1beta1ClientConfigErrorsUseTheV1beta1Path) {
  expectError(with(kV1beta1WebhookCrd, "        path: /convert\n",
                   "        path: /convert\n      url: https://example.com/\n"),
              "spec.conversion.webhookClientConfig", "exactly one of url or service");
}

TEST(CrdValidate, HttpUrlIsAllowedWithAWarning) {
  LoadResult r = load(with(kV1WebhookCrd, "https://127.0.0.1:9443", "http://127.0.0.1:9443"));
  EXPECT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.crds.size(), 1u);
  EXPECT_TRUE(warned(r, "http:// is accepted for local development only")) << describe(r);
}

TEST(CrdValidate, OtherUrlSchemesAreAnError) {
  expectError(with(kV1WebhookCrd, "https://127.0.0.1:9443", "ftp://127.0.0.1:9443"),
              "spec.conversion.webhook.clientConfig.url",
              "Invalid value: \"ftp\": 'https' is the only allowed URL scheme");
}

TEST(CrdValidate, UrlWithUserInfoIsAnErrorAndHidesThePassword) {
  LoadResult r = load(with(kV1WebhookCrd, "https://127.0.0.1", "https://me:secret@127.0.0.1"));
  const LoadError* e = errorAt(r, "spec.conversion.webhook.clientConfig.url");
  ASSERT_NE(e, nullptr) << describe(r);
  EXPECT_NE(e->message.find("user information is not permitted in the URL"), std::string::npos);
  EXPECT_EQ(e->message.find("secret"), std::string::npos) << e->message;
}

TEST(CrdValidate, UrlWithQueryIsAnError) {
  expectError(with(kV1WebhookCrd, "9443/convert", "9443/convert?x=1"),
              "spec.conversion.webhook.clientConfig.url",
              "Invalid value: \"x=1\": query parameters are not permitted in the URL");
}

TEST(CrdValidate, UrlWithFragmentIsAnError) {
  expectError(with(kV1WebhookCrd, "9443/convert", "9443/convert#top"),
              "spec.conversion.webhook.clientConfig.url",
              "Invalid value: \"top\": fragments are not permitted in the URL");
}

TEST(CrdValidate, UrlWithoutHostIsAnError) {
  expectError(with(kV1WebhookCrd, "https://127.0.0.1:9443/convert", "https:///convert"),
              "spec.conversion.webhook.clientConfig.url", "host must be specified");
}

TEST(CrdValidate, ServiceWithoutNameOrNamespaceIsAnError) {
  const std::string text = with(kV1WebhookCrd, kUrlLine, "        service: {path: /convert}\n");
  expectError(text, "spec.conversion.webhook.clientConfig.service.name",
              "service name is required");
  expectError(text, "spec.conversion.webhook.clientConfig.service.namespace",
              "service namespace is required");
}

TEST(CrdValidate, ServicePathMustStartWithASlash) {
  expectError(
      with(kV1WebhookCrd, kUrlLine, "        service: {namespace: a, name: b, path: convert}\n"),
      "spec.conversion.webhook.clientConfig.service.path", "must start with a '/'");
}

TEST(CrdValidate, ServicePathSegmentsMustBeDnsSubdomains) {
  expectError(with(kV1WebhookCrd, kUrlLine,
                   "        service: {namespace: a, name: b, path: /Convert_Me}\n"),
              "spec.conversion.webhook.clientConfig.service.path",
              "segment[0]: a lowercase RFC 1123 subdomain");
}

TEST(CrdValidate, ServicePortOutOfRangeIsAnError) {
  expectError(
      with(kV1WebhookCrd, kUrlLine, "        service: {namespace: a, name: b, port: 70000}\n"),
      "spec.conversion.webhook.clientConfig.service.port", "port is not valid");
}

TEST(CrdValidate, StrategyNoneWithWebhookSettingsIsForbidden) {
  expectError(with(kV1WebhookCrd, "strategy: Webhook", "strategy: None"),
              "spec.conversion.webhook.clientConfig",
              "Forbidden: should not be set when strategy is not set to Webhook");
}

TEST(CrdValidate, StrategyNoneNeedsNoWebhookSettings) {
  const std::string text = kV1WebhookCrd.substr(0, kV1WebhookCrd.find("  conversion:\n")) +
                           "  conversion:\n    strategy: None\n";
  LoadResult r = load(text);
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.crds.at(0).conversionStrategy, "None");
}

TEST(CrdValidate, MissingConversionMeansStrategyNone) {
  const std::string text = kV1WebhookCrd.substr(0, kV1WebhookCrd.find("  conversion:\n"));
  LoadResult r = load(text);
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.crds.at(0).conversionStrategy, "None");
}

TEST(CrdValidate, StoredVersionMissingFromSpecWarns) {
  LoadResult r = load(kV1WebhookCrd + "status:\n  storedVersions: [v1beta1]\n");
  EXPECT_TRUE(r.ok()) << describe(r);
  EXPECT_TRUE(warned(r,
                     "status.storedVersions[0]: Invalid value: \"v1beta1\": must appear in "
                     "spec.versions"))
      << describe(r);
}

TEST(CrdValidate, HelmTemplatedServiceWarnsButLoads) {
  LoadResult r = load(with(kV1WebhookCrd, kUrlLine,
                           "        service:\n          namespace: '{{ .Release.Namespace }}'\n"
                           "          name: '{{ template \"webhook.fullname\" . }}'\n"));
  EXPECT_TRUE(r.ok()) << describe(r);
  EXPECT_TRUE(warned(r, "the service reference is an unrendered Helm template")) << describe(r);
}

TEST(CrdValidate, HelmTemplatedGroupIsAnErrorSayingToRenderIt) {
  expectError(with(kV1WebhookCrd, "  group: example.com\n", "  group: '{{ .Values.group }}'\n"),
              "spec.group", "render the chart with `helm template` first");
}

TEST(CrdValidate, HelmTemplatedUrlIsAnErrorSayingToRenderIt) {
  expectError(
      with(kV1WebhookCrd, "https://127.0.0.1:9443/convert", "'https://{{ .Values.host }}/convert'"),
      "spec.conversion.webhook.clientConfig.url", "helm template");
}

}  // namespace
}  // namespace convcheck
