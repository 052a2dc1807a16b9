// A bundle's target: the run's transport completed from the CRD as the runner completes it, and a
// curl line that sends a request file with the same TLS trust, name, headers and time limit; every
// argument a shell would split or expand is quoted.
#include "reports/bundle_target.h"

#include <gtest/gtest.h>

#include <string>

namespace convcheck {
namespace {

using namespace std::chrono_literals;

bool curlHas(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

BundleTarget httpsTarget() {
  BundleTarget t;
  t.url = "https://127.0.0.1:9443/convert";
  t.reviewVersion = "v1";
  return t;
}

TEST(ShellQuote, LeavesPlainWordsAndQuotesEverythingElse) {
  EXPECT_EQ(shellQuote("out/bundles/p1-v1-v2.json"), "out/bundles/p1-v1-v2.json");
  EXPECT_EQ(shellQuote("https://127.0.0.1:9443/convert"), "https://127.0.0.1:9443/convert");
  EXPECT_EQ(shellQuote(""), "''");
  EXPECT_EQ(shellQuote("a b"), "'a b'");
  EXPECT_EQ(shellQuote("$(rm -rf ~)"), "'$(rm -rf ~)'");
  EXPECT_EQ(shellQuote("https://h/convert?timeout=30s&x=1"), "'https://h/convert?timeout=30s&x=1'");
  EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
}

TEST(CurlCommand, SendsTheRequestFileAsKubeApiserverDoes) {
  const std::string cmd = curlCommand(httpsTarget(), "request-1.json", "");
  EXPECT_EQ(cmd.rfind("curl --silent --show-error --http1.1 ", 0), 0u) << cmd;
  EXPECT_TRUE(curlHas(cmd, " -H 'Content-Type: application/json'")) << cmd;
  EXPECT_TRUE(curlHas(cmd, " -H 'Accept: application/json, */*'")) << cmd;
  EXPECT_TRUE(curlHas(cmd, " -H 'User-Agent: kube-apiserver-admission'")) << cmd;
  EXPECT_TRUE(curlHas(cmd, " -H 'Expect:' -H 'Accept-Encoding: gzip' --compressed")) << cmd;
  EXPECT_TRUE(curlHas(cmd, " --max-time 30")) << cmd;
  EXPECT_TRUE(curlHas(cmd, " --data-binary @request-1.json")) << cmd;
  // client-go's ?timeout= is part of the URL, which the shell must not read as `&` or glob.
  EXPECT_TRUE(curlHas(cmd, " 'https://127.0.0.1:9443/convert?timeout=30s'")) << cmd;
  EXPECT_FALSE(curlHas(cmd, "--cacert")) << cmd;
  EXPECT_FALSE(curlHas(cmd, "--insecure")) << cmd;
}

TEST(CurlCommand, TrustsTheBundlesCaFileOverTheRunsAndSkipsVerificationWhenTheRunDid) {
  BundleTarget t = httpsTarget();
  t.transport.tls.caFile = "/etc/pki/run ca.pem";
  EXPECT_TRUE(curlHas(curlCommand(t, "r.json", ""), " --cacert '/etc/pki/run ca.pem'"));
  const std::string own = curlCommand(t, "r.json", "ca.pem");
  EXPECT_TRUE(curlHas(own, " --cacert ca.pem")) << own;
  EXPECT_FALSE(curlHas(own, "run ca.pem")) << own;
  t.transport.tls.insecureSkipVerify = true;
  const std::string insecure = curlCommand(t, "r.json", "ca.pem");
  EXPECT_TRUE(curlHas(insecure, " --insecure")) << insecure;
  EXPECT_FALSE(curlHas(insecure, "--cacert")) << insecure;
}

TEST(CurlCommand, PresentsTheClientCertificateAndKey) {
  BundleTarget t = httpsTarget();
  t.transport.tls.certFile = "client.crt";
  t.transport.tls.keyFile = "client key.pem";
  const std::string cmd = curlCommand(t, "r.json", "");
  EXPECT_TRUE(curlHas(cmd, " --cert client.crt --key 'client key.pem'")) << cmd;
}

TEST(CurlCommand, AServerNameConnectsToTheUrlsAddressAndVerifiesTheName) {
  BundleTarget t = httpsTarget();
  t.transport.tls.serverName = "widgets.system.svc";
  const std::string cmd = curlCommand(t, "r.json", "");
  EXPECT_TRUE(curlHas(cmd, " --connect-to widgets.system.svc:9443:127.0.0.1:9443")) << cmd;
  EXPECT_TRUE(curlHas(cmd, " 'https://widgets.system.svc:9443/convert?timeout=30s'")) << cmd;
}

TEST(CurlCommand, FollowsTheTransportsProtocolAndTimeLimit) {
  BundleTarget t = httpsTarget();
  t.transport.http2 = true;
  t.transport.timeout = 1500ms;  // curl takes whole seconds: rounded up, never below the run's
  t.transport.userAgent = "convcheck/1.0 (test)";
  std::string cmd = curlCommand(t, "r.json", "");
  EXPECT_TRUE(curlHas(cmd, " --http2 ")) << cmd;
  EXPECT_TRUE(curlHas(cmd, " --max-time 2 ")) << cmd;
  EXPECT_TRUE(curlHas(cmd, " -H 'User-Agent: convcheck/1.0 (test)'")) << cmd;
  EXPECT_TRUE(curlHas(cmd, "?timeout=1.5s")) << cmd;
  t.transport.timeout = 10ms;
  cmd = curlCommand(t, "r.json", "");
  EXPECT_TRUE(curlHas(cmd, " --max-time 1 ")) << cmd;
}

TEST(CurlCommand, APlainHttpUrlGetsNoTlsOptions) {
  BundleTarget t;
  t.url = "http://127.0.0.1:8080/convert";
  t.transport.tls.caFile = "ca.pem";
  t.transport.tls.certFile = "client.crt";
  t.transport.tls.serverName = "widgets.system.svc";
  const std::string cmd = curlCommand(t, "r.json", "bundle-ca.pem");
  for (const char* option : {"--cacert", "--cert", "--key", "--insecure", "--connect-to"})
    EXPECT_FALSE(curlHas(cmd, option)) << option << ": " << cmd;
  EXPECT_TRUE(curlHas(cmd, "http://127.0.0.1:8080/convert")) << cmd;
}

TEST(BundleTargetFor, CompletesTheRunsTransportFromTheKindsCrd) {
  KindReport kind;
  kind.url = "https://127.0.0.1:9443/convert";
  kind.reviewVersion = "v1beta1";
  kind.crd.clientConfig.caBundlePem = "-----BEGIN CERTIFICATE-----\n";
  kind.crd.clientConfig.service = ServiceReference{"system", "widgets", "/convert", 443};
  TransportOptions run;
  run.timeout = 5s;
  run.http2 = true;

  // A URL of the user's for a service reference (a port-forward): the service's name is verified
  // and the CRD's caBundle trusted.
  BundleTarget t = bundleTargetFor(kind, run, true);
  EXPECT_EQ(t.url, kind.url);
  EXPECT_EQ(t.reviewVersion, "v1beta1");
  EXPECT_EQ(t.transport.timeout, 5s);
  EXPECT_TRUE(t.transport.http2);
  EXPECT_EQ(t.transport.tls.caPem, kind.crd.clientConfig.caBundlePem);
  EXPECT_EQ(t.transport.tls.serverName, "widgets.system.svc");

  // No URL given: the runner reached the service itself, by its own name.
  EXPECT_EQ(bundleTargetFor(kind, run, false).transport.tls.serverName, "");

  // What the user gave wins over the CRD.
  run.tls.caFile = "given-ca.pem";
  run.tls.serverName = "other.example";
  t = bundleTargetFor(kind, run, true);
  EXPECT_EQ(t.transport.tls.caFile, "given-ca.pem");
  EXPECT_EQ(t.transport.tls.caPem, "");
  EXPECT_EQ(t.transport.tls.serverName, "other.example");
}

}  // namespace
}  // namespace convcheck
