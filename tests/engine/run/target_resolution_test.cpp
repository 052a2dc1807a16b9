// Where a kind's reviews go: the command line's choices over the CRD's clientConfig, one rule for
// run, replay and minimize.
#include <gtest/gtest.h>

#include "engine/run/target_resolution.h"

namespace convcheck {
namespace {

Crd webhookCrd() {
  Crd crd;
  crd.name = "widgets.example.com";
  crd.conversionStrategy = "Webhook";
  crd.conversionReviewVersions = {"v1beta1", "v1"};
  crd.clientConfig.url = "https://hook.example.com/convert";
  crd.clientConfig.caBundlePem = "-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n";
  return crd;
}

ResolvedTarget resolved(const Crd& crd, const TargetChoice& choice) {
  auto r = resolveTarget(crd, choice);
  if (auto* e = std::get_if<std::string>(&r)) ADD_FAILURE() << *e;
  return std::get<ResolvedTarget>(r);
}

TEST(TargetResolution, TheCrdsUrlCaBundleAndFirstKnownReviewVersion) {
  ResolvedTarget t = resolved(webhookCrd(), {});
  EXPECT_EQ(t.url, "https://hook.example.com/convert");
  EXPECT_EQ(t.transport.tls.caPem, webhookCrd().clientConfig.caBundlePem);
  EXPECT_EQ(t.reviewVersion, ReviewVersion::V1beta1);
}

TEST(TargetResolution, ChoicesWinOverTheCrd) {
  TargetChoice choice;
  choice.url = "https://127.0.0.1:9443/convert";
  choice.transport.tls.caFile = "/tmp/ca.pem";
  choice.reviewVersion = ReviewVersion::V1;
  ResolvedTarget t = resolved(webhookCrd(), choice);
  EXPECT_EQ(t.url, choice.url);
  EXPECT_EQ(t.transport.tls.caFile, "/tmp/ca.pem");
  EXPECT_TRUE(t.transport.tls.caPem.empty());  // a CA file replaces the caBundle
  EXPECT_EQ(t.reviewVersion, ReviewVersion::V1);
}

TEST(TargetResolution, AServiceReferenceNeedsAUrlAndIsCheckedForItsServiceName) {
  Crd crd = webhookCrd();
  crd.clientConfig.url.clear();
  crd.clientConfig.service = ServiceReference{"system", "widget-webhook", "/convert", 443};
  auto missing = resolveTarget(crd, {});
  ASSERT_TRUE(std::holds_alternative<std::string>(missing));
  // Every way to reach it: through kubectl (either flag) or a URL of the user's.
  EXPECT_NE(std::get<std::string>(missing).find("pass --port-forward or --service-proxy"),
            std::string::npos)
      << std::get<std::string>(missing);
  EXPECT_NE(std::get<std::string>(missing).find("--url"), std::string::npos);
  EXPECT_NE(std::get<std::string>(missing).find("widget-webhook.system.svc"), std::string::npos);

  TargetChoice choice;
  choice.url = "https://127.0.0.1:9443/convert";
  EXPECT_EQ(resolved(crd, choice).transport.tls.serverName, "widget-webhook.system.svc");
  choice.transport.tls.serverName = "other.example.com";
  EXPECT_EQ(resolved(crd, choice).transport.tls.serverName, "other.example.com");
}

Crd serviceCrd(const std::string& path) {
  Crd crd = webhookCrd();
  crd.clientConfig.url.clear();
  crd.clientConfig.service = ServiceReference{"system", "widget-webhook", path, 443};
  return crd;
}

TEST(TargetResolution, AUrlWithoutPathTakesTheServicesPath) {
  TargetChoice choice;
  choice.url = "https://127.0.0.1:9443";
  EXPECT_EQ(resolved(serviceCrd("/convert"), choice).url, "https://127.0.0.1:9443/convert");
  choice.url = "https://127.0.0.1:9443/";
  EXPECT_EQ(resolved(serviceCrd("/convert"), choice).url, "https://127.0.0.1:9443/convert");
  choice.url = "https://127.0.0.1:9443?x=1";
  EXPECT_EQ(resolved(serviceCrd("convert"), choice).url, "https://127.0.0.1:9443/convert?x=1");
}

TEST(TargetResolution, TheServiceProxyReachesTheServiceThroughTheApiServerWithoutTls) {
  TargetChoice choice;
  choice.serviceProxy = "http://127.0.0.1:8001";
  choice.transport.tls.caFile = "/tmp/ca.pem";
  ResolvedTarget t = resolved(serviceCrd("/convert"), choice);
  EXPECT_EQ(t.url,
            "http://127.0.0.1:8001/api/v1/namespaces/system/services/https:widget-webhook:443/"
            "proxy/convert");
  EXPECT_TRUE(t.transport.tls.caFile.empty());  // the API server checks no certificate
  EXPECT_TRUE(t.transport.tls.caPem.empty());
  EXPECT_EQ(resolved(serviceCrd(""), choice).url.substr(21),
            "/api/v1/namespaces/system/services/https:widget-webhook:443/proxy/");
}

TEST(TargetResolution, TheServiceProxyNeedsAServiceReference) {
  TargetChoice choice;
  choice.serviceProxy = "http://127.0.0.1:8001";
  auto r = resolveTarget(webhookCrd(), choice);
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_NE(std::get<std::string>(r).find("not a service reference"), std::string::npos);
}

TEST(TargetResolution, AUrlWithAPathKeepsIt) {
  TargetChoice choice;
  choice.url = "https://127.0.0.1:9443/other";
  EXPECT_EQ(resolved(serviceCrd("/convert"), choice).url, "https://127.0.0.1:9443/other");
  choice.url = "https://127.0.0.1:9443";
  EXPECT_EQ(resolved(serviceCrd(""), choice).url, "https://127.0.0.1:9443");
}

TEST(TargetResolution, ACertificateFailureOfAServiceNamesTheVerifiedNameAndTheFlag) {
  TargetChoice choice;
  choice.url = "https://127.0.0.1:9443";
  ResolvedTarget t = resolved(serviceCrd("/convert"), choice);
  const std::string reason = "TLS: certificate verify failed (no match) for https://x";
  std::string text = explainUnreachable(t, reason);
  EXPECT_EQ(text.rfind(reason, 0), 0u);
  EXPECT_NE(text.find("verified for widget-webhook.system.svc"), std::string::npos) << text;
  EXPECT_NE(text.find("--tls-server-name"), std::string::npos) << text;
  EXPECT_NE(text.find("convcheck certs --service widget-webhook --namespace system"),
            std::string::npos)
      << text;
  EXPECT_EQ(explainUnreachable(t, "Connect: refused"), "Connect: refused");
  EXPECT_EQ(explainUnreachable(resolved(webhookCrd(), {}), reason), reason);
}

TEST(TargetResolution, NoClientConfigAndNoUrlIsAnErrorNamingTheCrd) {
  Crd crd = webhookCrd();
  crd.clientConfig = {};
  auto r = resolveTarget(crd, {});
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_EQ(std::get<std::string>(r).rfind("widgets.example.com: no webhook URL", 0), 0u);
}

TEST(TargetResolution, ACrdWithoutWebhookConversionGetsV1Reviews) {
  Crd crd = webhookCrd();
  crd.conversionStrategy = "None";
  crd.conversionReviewVersions.clear();
  EXPECT_EQ(resolved(crd, {}).reviewVersion, ReviewVersion::V1);
}

TEST(TargetResolution, ReviewVersionsTheHarnessCannotSpeakAreAnError) {
  Crd crd = webhookCrd();
  crd.conversionReviewVersions = {"v2"};
  auto r = resolveTarget(crd, {});
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_NE(std::get<std::string>(r).find("neither v1 nor v1beta1"), std::string::npos);
}

}  // namespace
}  // namespace convcheck
