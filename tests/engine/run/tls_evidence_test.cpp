// The endpoint check: the registry's Endpoint-scope properties (tls) are judged on the evidence of
// the resolved target, against a real HTTPS webhook with certificates made at test time; nothing
// is dialled when none of them is wanted.
#include "engine/run/tls_evidence.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/support/example_webhook.h"

namespace convcheck {
namespace {

using test::ExampleWebhook;
using test::ExampleWebhookOptions;
using test::ServerCertVariant;

bool all(const std::string&) { return true; }

ResolvedTarget targetOf(const ExampleWebhook& hook) {
  ResolvedTarget target;
  target.url = hook.url();
  target.transport.tls.caFile = hook.pki().caFile();
  return target;
}

TEST(EndpointResults, NothingWantedIsNothingJudgedAndNothingDialled) {
  ResolvedTarget target;
  target.url = "https://127.0.0.1:1/convert";  // would fail if it were dialled
  std::vector<std::string> asked;
  const auto results = endpointResults(target, [&](const std::string& id) {
    asked.push_back(id);
    return false;
  });
  EXPECT_TRUE(results.empty());
  EXPECT_EQ(asked, std::vector<std::string>{"tls"});  // each Endpoint-scope property, once
}

TEST(EndpointResults, APlainHttpUrlOrSkippedVerificationCannotBeJudged) {
  ResolvedTarget target;
  target.url = "http://127.0.0.1:8080/convert";
  auto results = endpointResults(target, all);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].property, "tls");
  EXPECT_EQ(results[0].outcome, Outcome::Blocked);
  EXPECT_EQ(results[0].blockedBy, "not an https:// URL");
  target.url = "https://127.0.0.1:8443/convert";
  target.transport.tls.insecureSkipVerify = true;
  results = endpointResults(target, all);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].blockedBy, "--insecure-skip-tls-verify");
}

TEST(EndpointResults, AServingCertificateKubeApiserverAcceptsPasses) {
  ExampleWebhook hook;
  const auto results = endpointResults(targetOf(hook), all);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].property, "tls");
  EXPECT_EQ(results[0].outcome, Outcome::Pass) << results[0].blockedBy;
}

TEST(EndpointResults, ACertificateWithoutSubjectAltNamesFailsWithGosReason) {
  ExampleWebhookOptions options;
  options.pki.server = ServerCertVariant::CnOnly;
  ExampleWebhook hook(options);
  const auto results = endpointResults(targetOf(hook), all);
  ASSERT_EQ(results.size(), 1u);
  ASSERT_EQ(results[0].outcome, Outcome::Fail) << results[0].blockedBy;
  ASSERT_TRUE(results[0].finding.has_value());
  EXPECT_EQ(results[0].finding->property, "tls");
  ASSERT_FALSE(results[0].finding->details.empty());
  EXPECT_NE(results[0].finding->details[0].find("legacy Common Name field"), std::string::npos)
      << results[0].finding->details[0];
}

}  // namespace
}  // namespace convcheck
