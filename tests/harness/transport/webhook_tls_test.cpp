// The TLS settings of a CRD's webhook: the user's CA and server name win; else the CRD's caBundle,
// and for a service reference reached through the user's URL, <service>.<namespace>.svc.
#include "harness/transport/webhook_tls.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

const std::string kCaBundle = "-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n";

Crd serviceCrd() {
  Crd crd;
  crd.clientConfig.caBundlePem = kCaBundle;
  crd.clientConfig.service = ServiceReference{"system", "widget-webhook", "/convert", 443};
  return crd;
}

TEST(WebhookTls, AServiceIsVerifiedForItsClusterName) {
  EXPECT_EQ(serviceServerName(ServiceReference{"system", "widget-webhook", "", 443}),
            "widget-webhook.system.svc");
  EXPECT_EQ(webhookTls(serviceCrd(), {}, true).serverName, "widget-webhook.system.svc");
}

TEST(WebhookTls, TheServiceNameIsOnlyUsedForAUrlOfTheUsers) {
  EXPECT_EQ(webhookTls(serviceCrd(), {}, false).serverName, "");
  Crd byUrl = serviceCrd();
  byUrl.clientConfig.service.reset();
  byUrl.clientConfig.url = "https://hook.example.com/convert";
  EXPECT_EQ(webhookTls(byUrl, {}, true).serverName, "");
}

TEST(WebhookTls, TheUsersServerNameWins) {
  TlsOptions given;
  given.serverName = "other.example.com";
  EXPECT_EQ(webhookTls(serviceCrd(), given, true).serverName, "other.example.com");
}

TEST(WebhookTls, TheCaBundleIsTheCaUnlessOneWasGiven) {
  EXPECT_EQ(webhookTls(serviceCrd(), {}, true).caPem, kCaBundle);
  TlsOptions file;
  file.caFile = "/tmp/ca.pem";
  TlsOptions t = webhookTls(serviceCrd(), file, true);
  EXPECT_EQ(t.caFile, "/tmp/ca.pem");
  EXPECT_EQ(t.caPem, "");
  TlsOptions pem;
  pem.caPem = "given";
  EXPECT_EQ(webhookTls(serviceCrd(), pem, true).caPem, "given");
}

TEST(WebhookTls, ClientCertificateAndVerificationChoicesPassThrough) {
  TlsOptions given;
  given.certFile = "c.pem";
  given.keyFile = "k.pem";
  given.insecureSkipVerify = true;
  TlsOptions t = webhookTls(serviceCrd(), given, true);
  EXPECT_EQ(t.certFile, "c.pem");
  EXPECT_EQ(t.keyFile, "k.pem");
  EXPECT_TRUE(t.insecureSkipVerify);
}

}  // namespace
}  // namespace convcheck
