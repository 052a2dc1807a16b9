// goVerifyHostname: Go crypto/x509 host name matching, case by case.
#include "kube/go/go_x509.h"

#include <gtest/gtest.h>

namespace convcheck {
namespace {

CertificateNames sans(std::vector<std::string> dns, std::vector<std::string> ips = {}) {
  CertificateNames names;
  names.commonName = "ignored.example";
  names.dnsNames = std::move(dns);
  names.ipAddresses = std::move(ips);
  names.hasSanExtension = true;
  return names;
}

TEST(GoVerifyHostname, MatchesADnsSanCaseInsensitivelyAndWithATrailingDot) {
  const auto names = sans({"webhook.default.svc"});
  EXPECT_EQ(goVerifyHostname(names, "webhook.default.svc"), std::nullopt);
  EXPECT_EQ(goVerifyHostname(names, "WebHook.Default.SVC"), std::nullopt);
  EXPECT_EQ(goVerifyHostname(names, "webhook.default.svc."), std::nullopt);
}

TEST(GoVerifyHostname, AWildcardCoversExactlyOneLeftmostLabel) {
  const auto names = sans({"*.default.svc"});
  EXPECT_EQ(goVerifyHostname(names, "webhook.default.svc"), std::nullopt);
  EXPECT_EQ(goVerifyHostname(names, "a.webhook.default.svc"),
            "x509: certificate is valid for *.default.svc, not a.webhook.default.svc");
  EXPECT_EQ(goVerifyHostname(names, "default.svc"),
            "x509: certificate is valid for *.default.svc, not default.svc");
}

TEST(GoVerifyHostname, NeverFallsBackToTheCommonName) {
  CertificateNames names;
  names.commonName = "webhook.default.svc";
  EXPECT_EQ(goVerifyHostname(names, "webhook.default.svc"),
            "x509: certificate relies on legacy Common Name field, use SANs instead");
}

TEST(GoVerifyHostname, ACommonNameThatDoesNotMatchGivesTheNoNamesMessage) {
  CertificateNames names;
  names.commonName = "something.else";
  EXPECT_EQ(
      goVerifyHostname(names, "webhook.default.svc"),
      "x509: certificate is not valid for any names, but wanted to match webhook.default.svc");
}

TEST(GoVerifyHostname, MatchesIpHostsOnlyAgainstIpSans) {
  EXPECT_EQ(goVerifyHostname(sans({"127.0.0.1"}), "127.0.0.1"),
            "x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP "
            "SANs");
  EXPECT_EQ(goVerifyHostname(sans({}, {"127.0.0.1"}), "127.0.0.1"), std::nullopt);
  EXPECT_EQ(goVerifyHostname(sans({}, {"10.0.0.1", "10.0.0.2"}), "127.0.0.1"),
            "x509: certificate is valid for 10.0.0.1, 10.0.0.2, not 127.0.0.1");
}

TEST(GoVerifyHostname, ComparesIpsByValue) {
  EXPECT_EQ(goVerifyHostname(sans({}, {"::1"}), "[::1]"), std::nullopt);
  EXPECT_EQ(goVerifyHostname(sans({}, {"::1"}), "0:0:0:0:0:0:0:1"), std::nullopt);
  EXPECT_EQ(goVerifyHostname(sans({}, {"::ffff:127.0.0.1"}), "127.0.0.1"), std::nullopt);
}

TEST(GoVerifyHostname, ListsTheDnsNamesWhenNoneMatch) {
  EXPECT_EQ(goVerifyHostname(sans({"a.svc", "b.svc"}), "c.svc"),
            "x509: certificate is valid for a.svc, b.svc, not c.svc");
}

}  // namespace
}  // namespace convcheck
