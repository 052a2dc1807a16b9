// The real example-webhook process over TLS on 127.0.0.1, verified with the test CA: both review
// versions, batches, faults visible on the wire, client certificates, signals and the CLI.
#include "tests/support/example_webhook.h"

#include <signal.h>

#include <csignal>

#include <fstream>

#include <gtest/gtest.h>

#include <httplib.h>
#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>
#include <thread>

#include "examples/webhook/faults.h"

namespace convcheck::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

std::unique_ptr<httplib::SSLClient> clientFor(const ExampleWebhook& webhook,
                                              bool withClientCert = false) {
  // httplib writes with SSL_write: a server closing the connection (e.g. refusing a client
  // without a certificate) must fail the request, not kill the test with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  auto client = withClientCert ? std::make_unique<httplib::SSLClient>(
                                     "127.0.0.1", webhook.port(), webhook.pki().clientCertFile(),
                                     webhook.pki().clientKeyFile())
                               : std::make_unique<httplib::SSLClient>("127.0.0.1", webhook.port());
  client->set_ca_cert_path(webhook.pki().caFile().c_str());
  client->enable_server_certificate_verification(true);
  client->set_connection_timeout(5);
  client->set_read_timeout(10);
  return client;
}

json cronTab(const std::string& version, const std::string& name) {
  json spec = version == "v1" ? json{{"host", "localhost"}, {"port", "8080"}}
                              : json{{"hostPort", "localhost:8080"}};
  return {{"apiVersion", "stable.example.com/" + version},
          {"kind", "CronTab"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", "uid-" + name}}},
          {"spec", spec}};
}

std::string review(const std::string& reviewVersion, const std::string& uid,
                   const std::string& desired, const json& objects) {
  return json{
      {"kind", "ConversionReview"},
      {"apiVersion", "apiextensions.k8s.io/" + reviewVersion},
      {"request", {{"uid", uid}, {"desiredAPIVersion", desired}, {"objects", objects}}},
      {"response",
       {{"uid", ""}, {"convertedObjects", nullptr}, {"result", {{"metadata", json::object()}}}}}}
      .dump();
}

json batchOf(std::size_t n) {
  json objects = json::array();
  for (std::size_t i = 0; i < n; ++i)
    objects.push_back(cronTab("v1beta1", "c" + std::to_string(i)));
  return objects;
}

TEST(ExampleWebhookProcess, AnswersAV1ReviewOverVerifiedTls) {
  ExampleWebhook webhook;
  EXPECT_EQ(webhook.url(), "https://127.0.0.1:" + std::to_string(webhook.port()) + "/convert");
  auto client = clientFor(webhook);
  auto res = client->Post("/convert?timeout=30s",
                          review("v1", "7d3c-uid-1", "stable.example.com/v1",
                                 json::array({cronTab("v1beta1", "a"), cronTab("v1beta1", "b")})),
                          "application/json");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  ASSERT_EQ(res->status, 200) << res->body;
  json out = json::parse(res->body);
  EXPECT_EQ(out["apiVersion"], "apiextensions.k8s.io/v1");
  EXPECT_EQ(out["kind"], "ConversionReview");
  EXPECT_EQ(out["response"]["uid"], "7d3c-uid-1");
  EXPECT_EQ(out["response"]["result"]["status"], "Success");
  EXPECT_EQ(out["response"]["convertedObjects"],
            json::array({cronTab("v1", "a"), cronTab("v1", "b")}));
}

TEST(ExampleWebhookProcess, AnswersAV1beta1ReviewInV1beta1) {
  ExampleWebhook webhook;
  auto res = clientFor(webhook)->Post(
      "/convert",
      review("v1beta1", "uid-2", "stable.example.com/v1beta1", json::array({cronTab("v1", "a")})),
      "application/json");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  ASSERT_EQ(res->status, 200);
  json out = json::parse(res->body);
  EXPECT_EQ(out["apiVersion"], "apiextensions.k8s.io/v1beta1");
  EXPECT_EQ(out["response"]["uid"], "uid-2");
  EXPECT_EQ(out["response"]["convertedObjects"][0], cronTab("v1beta1", "a"));
}

TEST(ExampleWebhookProcess, Http500Over8FaultAnswers500ForNineObjectsAnd200ForEight) {
  ExampleWebhook webhook({.faults = {"http500-over-8"}});
  auto client = clientFor(webhook);
  auto nine = client->Post("/convert", review("v1", "u9", "stable.example.com/v1", batchOf(9)),
                           "application/json");
  ASSERT_TRUE(nine) << httplib::to_string(nine.error());
  EXPECT_EQ(nine->status, 500);
  auto eight = client->Post("/convert", review("v1", "u8", "stable.example.com/v1", batchOf(8)),
                            "application/json");
  ASSERT_TRUE(eight) << httplib::to_string(eight.error());
  EXPECT_EQ(eight->status, 200);
  EXPECT_EQ(json::parse(eight->body)["response"]["convertedObjects"].size(), 8u);
}

TEST(ExampleWebhookProcess, Delay3sFaultDelaysTheAnswer) {
  ExampleWebhook webhook({.faults = {"delay-3s"}});
  const auto start = std::chrono::steady_clock::now();
  auto res = clientFor(webhook)->Post(
      "/convert", review("v1", "u", "stable.example.com/v1", batchOf(1)), "application/json");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 200);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 3s);
}

TEST(ExampleWebhookProcess, DelayMsDelaysEveryAnswerAndSlowAnswersOverlap) {
  ExampleWebhook webhook({.delayMs = 400});
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> callers;
  std::vector<int> statuses(4, 0);
  for (int i = 0; i < 4; ++i)
    callers.emplace_back([&, i] {
      auto res = clientFor(webhook)->Post(
          "/convert", review("v1", "u", "stable.example.com/v1", batchOf(1)), "application/json");
      statuses[i] = res ? res->status : -1;
    });
  for (auto& t : callers) t.join();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  for (int s : statuses) EXPECT_EQ(s, 200);
  EXPECT_GE(elapsed, 400ms);
  EXPECT_LT(elapsed, 1600ms);  // four sequential answers would take 1.6 s
}

TEST(ExampleWebhookProcess, ServesReadyz) {
  ExampleWebhook webhook;
  auto res = clientFor(webhook)->Get("/readyz");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 200);
}

TEST(ExampleWebhookProcess, ServesACustomPath) {
  ExampleWebhook webhook({.path = "/crdconvert"});
  EXPECT_EQ(webhook.url(), webhook.baseUrl() + "/crdconvert");
  auto res = clientFor(webhook)->Post(
      "/crdconvert", review("v1", "u", "stable.example.com/v1", batchOf(1)), "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
}

TEST(ExampleWebhookProcess, ExpiredServerCertificateFailsVerification) {
  ExampleWebhook webhook({.pki = {.server = ServerCertVariant::Expired}});
  auto res = clientFor(webhook)->Get("/readyz");
  EXPECT_FALSE(res);
  EXPECT_EQ(res.error(), httplib::Error::SSLServerVerification);
}

TEST(ExampleWebhookProcess, RequiresAClientCertificateWhenGivenAClientCa) {
  ExampleWebhook webhook({.requireClientCert = true});
  EXPECT_FALSE(clientFor(webhook)->Get("/readyz"));
  auto res = clientFor(webhook, /*withClientCert=*/true)->Get("/readyz");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 200);
}

TEST(ExampleWebhookProcess, SigtermStopsItWithExitCode0) {
  ExampleWebhook webhook;
  auto status = webhook.process().stop(10s);
  EXPECT_TRUE(status.exited) << status.describe();
  EXPECT_EQ(status.code, 0);
}

TEST(ExampleWebhookProcess, SigintStopsItWithExitCode0) {
  ExampleWebhook webhook;
  webhook.process().signal(SIGINT);
  auto status = webhook.process().wait(10s);
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->success()) << status->describe();
}

TEST(ExampleWebhookProcess, FaultListPrintsOneLinePerFault) {
  ChildProcess list({ExampleWebhook::binaryPath(), "--fault", "list"});
  auto status = list.wait(10s);
  ASSERT_TRUE(status && status->success());
  EXPECT_EQ(list.stdoutText(), example::faultListing());
  std::size_t lines = 0;
  for (char c : list.stdoutText()) lines += c == '\n';
  EXPECT_EQ(lines, example::faultCatalogue().size());
}

TEST(ExampleWebhookProcess, FaultListUpgradePrintsTheSecondReleasesFaults) {
  ChildProcess list({ExampleWebhook::binaryPath(), "--fault", "list-upgrade"});
  auto status = list.wait(10s);
  ASSERT_TRUE(status && status->success());
  EXPECT_EQ(list.stdoutText(), example::faultListing(true));
  EXPECT_NE(list.stdoutText().find("converts-stored-differently  read-after-upgrade"),
            std::string::npos);
}

TEST(ExampleWebhookProcess, UnknownFaultIsAUsageError) {
  ChildProcess bad({ExampleWebhook::binaryPath(), "--cert", "x", "--key", "y", "--fault", "bogus"});
  auto status = bad.wait(10s);
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->code, 2);
  EXPECT_NE(bad.stderrText().find("bogus"), std::string::npos);
}

TEST(ExampleWebhookProcess, UnreadableCertificateExitsWithAnError) {
  ChildProcess bad({ExampleWebhook::binaryPath(), "--cert", "/nonexistent.pem", "--key",
                    "/nonexistent-key.pem", "--port", "0"});
  auto status = bad.wait(10s);
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->code, 1);
  EXPECT_NE(bad.stderrText().find("/nonexistent.pem"), std::string::npos);
}

TEST(ExampleWebhookProcess, WritesACrdPointingAtItselfWithTheCaBundle) {
  ExampleWebhook webhook;
  YAML::Node crd = YAML::LoadFile(webhook.writeCrdPointingHere(ExampleWebhook::widgetCrdPath()));
  YAML::Node clientConfig = crd["spec"]["conversion"]["webhook"]["clientConfig"];
  EXPECT_EQ(clientConfig["url"].as<std::string>(), webhook.url());
  const std::string bundle = clientConfig["caBundle"].as<std::string>();
  std::string decoded(bundle.size(), '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(decoded.data()),
                          reinterpret_cast<const unsigned char*>(bundle.data()),
                          static_cast<int>(bundle.size()));
  ASSERT_GT(n, 0);
  EXPECT_EQ(decoded.substr(0, webhook.pki().caPem().size()), webhook.pki().caPem());
  EXPECT_EQ(crd["spec"]["versions"].size(), 3u);
}

}  // namespace
}  // namespace convcheck::test
