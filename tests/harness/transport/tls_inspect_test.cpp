// inspectServerTls against real HTTPS servers on 127.0.0.1: the certificate facts it reports and
// the verdict of kube-apiserver's Go client.
#include "harness/transport/tls_inspect.h"

#include <gtest/gtest.h>

#include "tests/harness/transport/test_https_server.h"
#include "tests/harness/transport/test_pki.h"

namespace convcheck {
namespace {

using namespace std::chrono_literals;
using testing::answerJson;
using testing::ServerTls;
using testing::TestHttpsServer;
using testing::TransportPki;

const TransportPki& pki() { return TransportPki::instance(); }

ServerTls serving(const testing::CertKey& pair) {
  return testing::servingCert(pair.cert, pair.key);
}

TlsOptions trustingTestCa() {
  TlsOptions tls;
  tls.caFile = pki().caFile;
  return tls;
}

std::string joined(const std::vector<std::string>& reasons) {
  std::string out;
  for (const auto& reason : reasons) out += reason + " | ";
  return out;
}

TEST(TlsInspect, AcceptsACertificateWithAnIpSanFromTheTrustedCa) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));

  const TlsInspection tls = inspectServerTls(server.url(), trustingTestCa(), 5s);

  EXPECT_TRUE(tls.applicable);
  EXPECT_TRUE(tls.handshakeCompleted) << tls.error;
  EXPECT_EQ(tls.protocol, "TLSv1.3");
  EXPECT_TRUE(tls.tls12OrNewer);
  EXPECT_EQ(tls.verifiedName, "127.0.0.1");
  EXPECT_EQ(tls.subjectCommonName, "127.0.0.1");
  EXPECT_EQ(tls.sanIpAddresses, std::vector<std::string>{"127.0.0.1"});
  EXPECT_EQ(tls.sanDnsNames, (std::vector<std::string>{"localhost", "webhook.convcheck.svc"}));
  EXPECT_EQ(tls.notBefore, "2020-01-01T00:00:00Z");
  EXPECT_EQ(tls.notAfter, "2099-01-01T00:00:00Z");
  EXPECT_TRUE(tls.chainVerified) << tls.chainError;
  EXPECT_TRUE(tls.acceptedByKubeApiserver) << joined(tls.reasons);
  EXPECT_TRUE(tls.reasons.empty());
  // The inspection handshake is not an HTTP request.
  EXPECT_TRUE(server.requests().empty());
}

TEST(TlsInspect, VerifiesAgainstCaPemText) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));
  TlsOptions options;
  options.caPem = pki().caPem;

  const TlsInspection tls = inspectServerTls(server.url(), options, 5s);

  EXPECT_TRUE(tls.chainVerified) << tls.chainError;
  EXPECT_TRUE(tls.acceptedByKubeApiserver) << joined(tls.reasons);
}

TEST(TlsInspect, ServerNameMustBeADnsSan) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));
  TlsOptions good = trustingTestCa();
  good.serverName = "webhook.convcheck.svc";
  TlsOptions bad = trustingTestCa();
  bad.serverName = "other.convcheck.svc";

  const TlsInspection accepted = inspectServerTls(server.url(), good, 5s);
  const TlsInspection rejected = inspectServerTls(server.url(), bad, 5s);

  EXPECT_TRUE(accepted.acceptedByKubeApiserver) << joined(accepted.reasons);
  EXPECT_EQ(accepted.verifiedName, "webhook.convcheck.svc");
  EXPECT_FALSE(rejected.acceptedByKubeApiserver);
  EXPECT_EQ(rejected.reasons,
            std::vector<std::string>{"x509: certificate is valid for localhost, "
                                     "webhook.convcheck.svc, not other.convcheck.svc"});
}

TEST(TlsInspect, RejectsACommonNameOnlyCertificateThatOpenSslVerifies) {
  TestHttpsServer server(serving(pki().cnOnly), answerJson("{}"));

  const TlsInspection tls = inspectServerTls(server.url(), trustingTestCa(), 5s);

  EXPECT_TRUE(tls.handshakeCompleted) << tls.error;
  EXPECT_TRUE(tls.chainVerified) << tls.chainError;
  EXPECT_EQ(tls.subjectCommonName, "127.0.0.1");
  EXPECT_TRUE(tls.sanIpAddresses.empty());
  EXPECT_FALSE(tls.acceptedByKubeApiserver);
  EXPECT_EQ(tls.reasons, std::vector<std::string>{
                             "x509: certificate relies on legacy Common Name field, use SANs "
                             "instead"});
}

TEST(TlsInspect, RejectsAnExpiredCertificate) {
  TestHttpsServer server(serving(pki().expired), answerJson("{}"));

  const TlsInspection tls = inspectServerTls(server.url(), trustingTestCa(), 5s);

  EXPECT_TRUE(tls.handshakeCompleted) << tls.error;
  EXPECT_FALSE(tls.chainVerified);
  EXPECT_EQ(tls.chainError, "certificate has expired");
  EXPECT_EQ(tls.notAfter, "2020-01-02T00:00:00Z");
  EXPECT_FALSE(tls.acceptedByKubeApiserver);
  ASSERT_EQ(tls.reasons.size(), 1u) << joined(tls.reasons);
  EXPECT_EQ(
      tls.reasons[0].rfind("x509: certificate has expired or is not yet valid: current time ", 0),
      0u)
      << tls.reasons[0];
  EXPECT_NE(tls.reasons[0].find(" is after 2020-01-02T00:00:00Z"), std::string::npos);
}

TEST(TlsInspect, RejectsACertificateNotYetValid) {
  TestHttpsServer server(serving(pki().notYetValid), answerJson("{}"));

  const TlsInspection tls = inspectServerTls(server.url(), trustingTestCa(), 5s);

  EXPECT_FALSE(tls.acceptedByKubeApiserver);
  ASSERT_FALSE(tls.reasons.empty());
  EXPECT_NE(tls.reasons[0].find(" is before 2099-01-01T00:00:00Z"), std::string::npos)
      << tls.reasons[0];
}

TEST(TlsInspect, RejectsAnUnknownAuthority) {
  TestHttpsServer server(serving(pki().unknownCa), answerJson("{}"));

  const TlsInspection tls = inspectServerTls(server.url(), trustingTestCa(), 5s);

  EXPECT_TRUE(tls.handshakeCompleted) << tls.error;
  EXPECT_FALSE(tls.chainVerified);
  EXPECT_FALSE(tls.chainError.empty());
  EXPECT_FALSE(tls.acceptedByKubeApiserver);
  EXPECT_EQ(tls.reasons, std::vector<std::string>{"x509: certificate signed by unknown authority"});
}

TEST(TlsInspect, UsesSystemRootsWhenNoCaIsGiven) {
  TestHttpsServer server(serving(pki().server), answerJson("{}"));

  const TlsInspection tls = inspectServerTls(server.url(), TlsOptions{}, 5s);

  EXPECT_FALSE(tls.chainVerified);
  EXPECT_EQ(tls.reasons, std::vector<std::string>{"x509: certificate signed by unknown authority"});
}

TEST(TlsInspect, InsecureSkipVerifyDoesNotChangeTheVerdict) {
  TestHttpsServer server(serving(pki().unknownCa), answerJson("{}"));
  TlsOptions options = trustingTestCa();
  options.insecureSkipVerify = true;

  const TlsInspection tls = inspectServerTls(server.url(), options, 5s);

  EXPECT_FALSE(tls.acceptedByKubeApiserver);
}

TEST(TlsInspect, RejectsASha1SignedCertificate) {
  ServerTls weak = serving(pki().sha1Signed);
  weak.allowWeakSignatures = true;
  TestHttpsServer server(weak, answerJson("{}"));

  const TlsInspection tls = inspectServerTls(server.url(), trustingTestCa(), 5s);

  EXPECT_TRUE(tls.handshakeCompleted) << tls.error;
  EXPECT_FALSE(tls.acceptedByKubeApiserver);
  ASSERT_EQ(tls.reasons.size(), 1u) << joined(tls.reasons);
  EXPECT_NE(tls.reasons[0].find("insecure algorithm ECDSA-SHA1"), std::string::npos)
      << tls.reasons[0];
}

TEST(TlsInspect, RejectsACertificateWithoutServerAuthUsage) {
  TestHttpsServer server(serving(pki().clientAuthOnly), answerJson("{}"));

  const TlsInspection tls = inspectServerTls(server.url(), trustingTestCa(), 5s);

  EXPECT_TRUE(tls.chainVerified) << tls.chainError;
  EXPECT_EQ(tls.reasons,
            std::vector<std::string>{"x509: certificate specifies an incompatible key usage"});
}

TEST(TlsInspect, ReportsAServerLimitedToTlsBelow12) {
  ServerTls legacy = serving(pki().server);
  legacy.onlyLegacyTls = true;
  TestHttpsServer server(legacy, answerJson("{}"));

  const TlsInspection tls = inspectServerTls(server.url(), trustingTestCa(), 5s);

  EXPECT_TRUE(tls.handshakeCompleted) << tls.error;
  EXPECT_FALSE(tls.tls12OrNewer);
  EXPECT_EQ(tls.protocol, "TLSv1.1");
  EXPECT_FALSE(tls.acceptedByKubeApiserver);
  ASSERT_FALSE(tls.reasons.empty());
  EXPECT_NE(tls.reasons[0].find("TLS 1.2"), std::string::npos) << tls.reasons[0];
}

TEST(TlsInspect, ReportsAnUnreachableServer) {
  const std::string url = "https://127.0.0.1:" + std::to_string(testing::closedPort());

  const TlsInspection tls = inspectServerTls(url, trustingTestCa(), 2s);

  EXPECT_FALSE(tls.handshakeCompleted);
  EXPECT_FALSE(tls.acceptedByKubeApiserver);
  EXPECT_NE(tls.error.find("Connection refused"), std::string::npos) << tls.error;
}

TEST(TlsInspect, IsNotApplicableToHttpUrls) {
  const TlsInspection tls = inspectServerTls("http://127.0.0.1:1/convert", TlsOptions{}, 1s);

  EXPECT_FALSE(tls.applicable);
  EXPECT_FALSE(tls.handshakeCompleted);
}

}  // namespace
}  // namespace convcheck
