// --port-forward through the real kubectl: `kubectl port-forward service/NAME` against
// tests/harness/cluster/apiserver-stand-in.js (a loopback stand-in, not an API server), which
// answers the reads kubectl makes and upgrades pods/POD/portforward as kubelet's port-forward does
// (WebSocket-tunnelled SPDY first, plain SPDY/3.1 when WebSockets are refused), relaying to the
// example webhook. TLS goes end to end: convcheck verifies the webhook's certificate with the
// CRD's caBundle for crontab-webhook.convcheck-test.svc.
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "tests/integration/convcheck_binary.h"
#include "tests/integration/stand_in_cluster.h"

namespace convcheck::test {
namespace {

const std::string kServiceName = "crontab-webhook.convcheck-test.svc";
const std::string kPortForwardPath =
    "/api/v1/namespaces/convcheck-test/pods/crontab-webhook-7c9d8b6f5-x2x4q/portforward";

StandInClusterOptions servedWithItsCertificate(std::vector<std::string> faults = {}) {
  StandInClusterOptions options;
  options.faults = std::move(faults);
  options.webhookDnsNames = {kServiceName};
  options.caBundle = true;
  return options;
}

// The request lines (not the indented notes) whose verb is not GET.
std::vector<std::string> nonGets(const std::vector<std::string>& requests) {
  std::vector<std::string> out;
  for (const auto& line : requests)
    if (line.rfind("  ", 0) != 0 && line.rfind("GET ", 0) != 0) out.push_back(line);
  return out;
}

int forwardedConnections(const std::vector<std::string>& requests) {
  int n = 0;
  for (const auto& line : requests) n += line.rfind("  forwarded connection", 0) == 0;
  return n;
}

TEST(ClusterPortForward, RunReachesTheServiceThroughKubectlPortForwardVerifyingItsCertificate) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster(servedWithItsCertificate());
  auto r = runConvcheck(withArgs(
      {"run", "--crd", "kube://" + kStandInCrd, "--port-forward", "--tests", "3", "--seed", "1"},
      cluster.clusterArgs()));
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  const std::string url = r.json["kinds"][0]["url"];
  EXPECT_TRUE(std::regex_match(url, std::regex("https://127\\.0\\.0\\.1:[0-9]+/convert"))) << url;
  auto requests = cluster.requests();
  // kubectl 1.32 reads the Service, the pods its selector picks and the pod, then upgrades a GET
  // of pods/POD/portforward to a WebSocket: nothing but GETs reach the stand-in.
  EXPECT_TRUE(anyLine(requests, "GET /api/v1/namespaces/convcheck-test/services/crontab-webhook"));
  EXPECT_TRUE(anyLine(requests,
                      "GET /api/v1/namespaces/convcheck-test/pods?labelSelector=app%3D"
                      "crontab-webhook"));
  EXPECT_TRUE(anyLine(requests, "GET " + kPortForwardPath));
  EXPECT_TRUE(anyLine(requests, "  upgrade WebSocket (SPDY/3.1 tunnelled)"));
  EXPECT_EQ(nonGets(requests), std::vector<std::string>{});
  EXPECT_GE(forwardedConnections(requests), 1);
  // The reviews went through the tunnel (TLS end to end), none through the service proxy.
  EXPECT_FALSE(anyLine(requests, "  objects"));
  EXPECT_GT(r.json["kinds"][0]["requests"].get<int>(), 3);
}

TEST(ClusterPortForward, WithoutWebSocketsKubectlFallsBackToSpdyAndTheFaultIsFound) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  auto options = servedWithItsCertificate({"failure-result"});  // names ending in a digit
  options.webSocket = false;
  StandInCluster cluster(options);
  auto r = runConvcheck(withArgs({"run", "--crd", "kube://" + kStandInCrd, "--port-forward",
                                  "--tests", "5", "--seed", "1", "--shrink-budget", "20"},
                                 cluster.clusterArgs()));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_FALSE(r.json["kinds"][0]["problems"].empty());
  auto requests = cluster.requests();
  EXPECT_TRUE(anyLine(requests, "  upgrade refused (WebSocket)"));
  EXPECT_TRUE(anyLine(requests, "  upgrade SPDY/3.1"));
  // The one request that is not a GET: create on pods/portforward, the SPDY upgrade.
  EXPECT_EQ(nonGets(requests), std::vector<std::string>{"POST " + kPortForwardPath});
  EXPECT_GE(forwardedConnections(requests), 1);
}

TEST(ClusterPortForward, FuzzReachesTheServiceThroughKubectlPortForwardToo) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster(servedWithItsCertificate({"failure-result"}));  // names ending in a digit
  auto r =
      runConvcheck(withArgs({"fuzz", "--crd", "kube://" + kStandInCrd, "--port-forward", "--runs",
                             "200", "--stop-on-problem", "--seed", "1", "--shrink-budget", "20"},
                            cluster.clusterArgs()));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_FALSE(r.json["kinds"][0]["problems"].empty()) << r.json.dump(2);
  const std::string url = r.json["kinds"][0]["url"];
  EXPECT_TRUE(std::regex_match(url, std::regex("https://127\\.0\\.0\\.1:[0-9]+/convert"))) << url;
  auto requests = cluster.requests();
  EXPECT_TRUE(nonGets(requests).empty()) << ::testing::PrintToString(nonGets(requests));
  EXPECT_GE(forwardedConnections(requests), 1);
}

TEST(ClusterPortForward, ACertificateNotMadeForTheServiceNameLeavesTheWebhookUntested) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInClusterOptions options;
  options.caBundle = true;  // the right CA, but the certificate names 127.0.0.1 and localhost only
  StandInCluster cluster(options);
  auto r = runConvcheck(withArgs(
      {"run", "--crd", "kube://" + kStandInCrd, "--port-forward", "--tests", "2", "--seed", "1"},
      cluster.clusterArgs()));
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("certificate is verified for " + kServiceName), std::string::npos) << r.err;
  EXPECT_GE(forwardedConnections(cluster.requests()), 1);  // the tunnel itself worked

  // --tls-server-name overrides the name, as with --url.
  auto named =
      runConvcheck(withArgs({"run", "--crd", "kube://" + kStandInCrd, "--port-forward",
                             "--tls-server-name", "localhost", "--tests", "2", "--seed", "1"},
                            cluster.clusterArgs()));
  EXPECT_EQ(named.status.code, 0) << named.out << named.err;
}

TEST(ClusterPortForward, AServiceKubectlCannotForwardIsNamedWithKubectlsErrorAndExit3) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  auto options = servedWithItsCertificate();
  options.crdServiceName = "gone-webhook";  // the stand-in has no such Service
  StandInCluster cluster(options);
  auto r = runConvcheck(withArgs(
      {"run", "--crd", "kube://" + kStandInCrd, "--port-forward", "--tests", "2", "--seed", "1"},
      cluster.clusterArgs()));
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("kubectl port-forward to service convcheck-test/gone-webhook port 443 "
                       "ended before forwarding: "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("Error from server (NotFound): services \"gone-webhook\" not found"),
            std::string::npos)
      << r.err;
}

TEST(ClusterPortForward, ReplayAndMinimizeForwardToTheServiceToo) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster(servedWithItsCertificate({"failure-result"}));
  ScratchDir dir("convcheck-port-forward");
  auto r = runConvcheck(
      withArgs({"run", "--crd", "kube://" + kStandInCrd, "--port-forward", "--cluster-objects", "1",
                "--tests", "1", "--seed", "1", "--shrink-budget", "0", "--properties",
                "converts-valid-input", "--report-dir", dir.path().string()},
               cluster.clusterArgs()));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  std::string bundle;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "bundles"))
    bundle = entry.path().string();
  ASSERT_FALSE(bundle.empty());
  // The run's port-forward is gone: the bundle is replayed through a new one.
  auto replayed =
      runConvcheckExactly(withArgs({"replay", bundle, "--port-forward"}, cluster.clusterArgs()));
  EXPECT_EQ(replayed.status.code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("still fails"), std::string::npos) << replayed.out;

  std::ofstream(dir.path() / "stored.json")
      << R"({"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"nightly-7",)"
      << R"("namespace":"default"},"spec":{"host":"db","port":"5432"}})";
  auto minimized = runConvcheckExactly(withArgs(
      {"minimize", "--crd", "kube://" + kStandInCrd, "--port-forward", "--to", "v1beta1",
       "--report-dir", (dir.path() / "minimized").string(), (dir.path() / "stored.json").string()},
      cluster.clusterArgs()));
  EXPECT_EQ(minimized.status.code, 1) << minimized.out << minimized.err;
  EXPECT_NE(minimized.err.find("converts-valid-input"), std::string::npos) << minimized.err;
  int upgrades = 0;
  for (const auto& line : cluster.requests()) upgrades += line.rfind("  upgrade WebSocket", 0) == 0;
  EXPECT_EQ(upgrades, 3);  // run, replay, minimize: one kubectl port-forward each
}

TEST(ClusterPortForward, AForwardThatEndsDuringTheRunIsNamedWithKubectlsError) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  auto options = servedWithItsCertificate();
  options.dropPortForwardAfter = 2;  // as when the pod goes away
  StandInCluster cluster(options);
  auto r = runConvcheck(withArgs({"run", "--crd", "kube://" + kStandInCrd, "--port-forward",
                                  "--tests", "20", "--seed", "1", "--jobs", "4"},
                                 cluster.clusterArgs()));
  EXPECT_NE(r.status.code, 0) << r.out << r.err;
  const std::string ended =
      "kubectl port-forward to service convcheck-test/crontab-webhook port 443 ended during the "
      "run: error: lost connection to pod";
  EXPECT_NE((r.out + r.err).find(ended), std::string::npos) << r.out << r.err;
  EXPECT_TRUE(anyLine(cluster.requests(), "  tunnel dropped"));
}

TEST(ClusterPortForward, ACrdWhoseWebhookIsAUrlIsAnInputError) {
  ScratchDir dir("convcheck-port-forward");
  ExampleWebhook hook;
  auto r =
      runConvcheck({"run", "--crd", hook.writeCrdPointingHere(ExampleWebhook::cronTabCrdPath()),
                    "--port-forward", "--tests", "1"});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--port-forward: the webhook is not a service reference (clientConfig.url "
                       "https://127.0.0.1:"),
            std::string::npos)
      << r.err;
  auto both = runConvcheck(
      {"run", "--crd", ExampleWebhook::cronTabCrdPath(), "--port-forward", "--service-proxy"});
  EXPECT_EQ(both.status.code, 2);
  EXPECT_NE(
      both.err.find("--service-proxy and --port-forward: choose one way to reach the webhook"),
      std::string::npos)
      << both.err;
}

// The kubectl port-forward children of `pid` (from /proc), so a test can see them end.
std::vector<pid_t> kubectlChildren(pid_t pid) {
  std::vector<pid_t> out;
  for (const auto& task :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task")) {
    std::ifstream children(task.path() / "children");
    for (pid_t child; children >> child;) {
      std::ifstream cmdline("/proc/" + std::to_string(child) + "/cmdline");
      std::string text((std::istreambuf_iterator<char>(cmdline)), {});
      if (text.find("port-forward") != std::string::npos) out.push_back(child);
    }
  }
  return out;
}

TEST(ClusterPortForward, AnInterruptedRunStopsKubectl) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster(servedWithItsCertificate());
  ChildProcess run(withArgs({convcheckBinary(), "run", "--crd", "kube://" + kStandInCrd,
                             "--port-forward", "--duration", "5m", "--seed", "1"},
                            cluster.clusterArgs()));
  std::vector<pid_t> kubectl;
  for (int i = 0; i < 300 && (kubectl.empty() || forwardedConnections(cluster.requests()) == 0);
       ++i) {
    if (kubectl.empty() && run.running()) kubectl = kubectlChildren(run.pid());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(kubectl.size(), 1u) << run.stderrText();
  run.signal(SIGTERM);
  auto status = run.wait(std::chrono::seconds(60));
  ASSERT_TRUE(status.has_value());
  EXPECT_FALSE(status->success()) << run.stderrText();  // interrupted, not finished
  errno = 0;
  EXPECT_EQ(kill(kubectl[0], 0), -1) << "kubectl port-forward outlived convcheck";
  EXPECT_EQ(errno, ESRCH);
}

}  // namespace
}  // namespace convcheck::test
