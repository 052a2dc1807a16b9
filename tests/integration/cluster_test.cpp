// convcheck against a live cluster through the real kubectl: --crd kube://NAME, --kubeconfig and
// --context (an exec credential plugin), --cluster-objects and --service-proxy. No API server can
// be installed here, so kubectl talks to tests/harness/cluster/apiserver-stand-in.js, a loopback
// HTTPS stand-in serving the endpoints convcheck uses and logging every request's verb.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/integration/convcheck_binary.h"
#include "tests/integration/stand_in_cluster.h"

namespace convcheck::test {
namespace {

const std::string kCrd = kStandInCrd;
const std::string kProxyPath =
    "/api/v1/namespaces/convcheck-test/services/https:crontab-webhook:443/proxy/convert";

TEST(Cluster, RunTakesTheCrdByNameAndReachesTheWebhookThroughTheServiceProxyWritingNothing) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster;
  auto r = runConvcheck(
      withArgs({"run", "--crd", "kube://" + kCrd, "--service-proxy", "--tests", "3", "--seed", "1"},
               cluster.clusterArgs()));
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  const auto& kind = r.json["kinds"][0];
  EXPECT_EQ(kind["crd"], kCrd);
  EXPECT_NE(kind["url"].get<std::string>().find(kProxyPath), std::string::npos) << kind["url"];
  // status.storedVersions came with the CRD from the API server.
  EXPECT_EQ(kind["storedVersions"], nlohmann::json::array({"v1beta1", "v1"}));
  int reviews = 0;
  for (const auto& line : cluster.requests()) {
    if (line.rfind("  objects", 0) == 0) continue;
    const std::string verb = line.substr(0, line.find(' '));
    const std::string path = line.substr(line.find(' ') + 1);
    if (verb == "POST") {
      // The one verb that is not a read: create on services/proxy, the review to the webhook.
      EXPECT_EQ(path.rfind(kProxyPath + "?timeout=30s", 0), 0u) << line;
      ++reviews;
    } else {
      EXPECT_EQ(verb, "GET") << line;
    }
  }
  EXPECT_EQ(reviews, r.json["kinds"][0]["requests"].get<int>());
  EXPECT_TRUE(anyLine(cluster.requests(),
                      "GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + kCrd));
}

TEST(Cluster, FuzzReachesTheWebhookThroughTheServiceProxyWritingNothing) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster;
  auto r = runConvcheck(withArgs(
      {"fuzz", "--crd", "kube://" + kCrd, "--service-proxy", "--runs", "30", "--seed", "1"},
      cluster.clusterArgs()));
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.json["kinds"][0]["url"].get<std::string>().find(kProxyPath), std::string::npos);
  int reviews = 0;
  for (const auto& line : cluster.requests()) {
    if (line.rfind("  objects", 0) == 0) continue;
    const std::string verb = line.substr(0, line.find(' '));
    if (verb == "POST") {
      EXPECT_EQ(line.find(kProxyPath), verb.size() + 1) << line;
      ++reviews;
    } else {
      EXPECT_EQ(verb, "GET") << line;
    }
  }
  EXPECT_GE(reviews, 30);  // every fuzz case makes at least its forward call through the proxy
}

TEST(Cluster, FuzzStartsFromTheStoredObjects) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster;
  auto r = runConvcheck(withArgs({"fuzz", "--crd", "kube://" + kCrd, "--service-proxy",
                                  "--cluster-objects", "3", "--runs", "20", "--seed", "1"},
                                 cluster.clusterArgs()));
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  auto requests = cluster.requests();
  for (const std::string version : {"v1", "v1beta1"})
    EXPECT_TRUE(anyLine(requests, "GET /apis/stable.example.com/" + version + "/crontabs?limit=3"))
        << version;
  EXPECT_NE(r.out.find("read 3 stored object(s) at v1"), std::string::npos) << r.out;
  for (const std::string stored : {"default/nightly-0", "team-a/nightly-1", "default/nightly-2"})
    EXPECT_TRUE(anyLine(requests, " " + stored)) << stored << " never reached the webhook";
}

TEST(Cluster, StoredObjectsAreListedPageByPageAndEveryPropertyRunsOnThem) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster({.faults = {"failure-result"}});  // Failure for names ending in a digit
  auto r = runConvcheck(
      withArgs({"run", "--crd", "kube://" + kCrd, "--service-proxy", "--cluster-objects", "3",
                "--tests", "2", "--seed", "1", "--shrink-budget", "0"},
               cluster.clusterArgs()));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  auto requests = cluster.requests();
  for (const std::string version : {"v1", "v1beta1"}) {
    const std::string list = "GET /apis/stable.example.com/" + version + "/crontabs?";
    EXPECT_TRUE(anyLine(requests, list + "limit=3")) << version;
    // The stand-in pages by two: the third object comes with the continue token.
    EXPECT_TRUE(anyLine(requests, list + "continue=")) << version;
    EXPECT_NE(r.out.find("read 3 stored object(s) at " + version), std::string::npos) << r.out;
  }
  for (const std::string stored : {"default/nightly-0", "team-a/nightly-1", "default/nightly-2"})
    EXPECT_TRUE(anyLine(requests, " " + stored)) << stored << " never reached the webhook";
  EXPECT_FALSE(anyLine(requests, "nightly-3")) << "more than --cluster-objects were read";
  // The stored objects run first: the problem's example is one of them.
  bool onStored = false;
  for (const auto& problem : r.json["kinds"][0]["problems"])
    onStored |= problem["example"].value("origin", "").rfind("sample cluster v", 0) == 0;
  EXPECT_TRUE(onStored) << r.out;
}

TEST(Cluster, ReplayAndMinimizeReachTheWebhookThroughTheServiceProxyToo) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster({.faults = {"failure-result"}});  // Failure for names ending in a digit
  auto dir = makeTempDir("convcheck-cluster");
  auto r = runConvcheck(
      withArgs({"run", "--crd", "kube://" + kCrd, "--service-proxy", "--cluster-objects", "1",
                "--tests", "1", "--seed", "1", "--shrink-budget", "0", "--properties",
                "converts-valid-input", "--report-dir", dir.string()},
               cluster.clusterArgs()));
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  std::string bundle;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "bundles"))
    bundle = entry.path().string();
  ASSERT_FALSE(bundle.empty());
  // The run's kubectl proxy is gone: the bundle is replayed through a new one.
  ChildProcess replay(
      withArgs({convcheckBinary(), "replay", bundle, "--service-proxy"}, cluster.clusterArgs()));
  auto replayed = replay.wait(std::chrono::seconds(60));
  ASSERT_TRUE(replayed.has_value());
  EXPECT_EQ(replayed->code, 1) << replay.stdoutText() << replay.stderrText();

  std::ofstream(dir / "stored.json")
      << R"({"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"nightly-7",)"
      << R"("namespace":"default"},"spec":{"host":"db","port":"5432"}})";
  ChildProcess minimize(withArgs(
      {convcheckBinary(), "minimize", "--crd", "kube://" + kCrd, "--service-proxy", "--to",
       "v1beta1", "--report-dir", (dir / "minimized").string(), (dir / "stored.json").string()},
      cluster.clusterArgs()));
  auto minimized = minimize.wait(std::chrono::seconds(60));
  ASSERT_TRUE(minimized.has_value());
  EXPECT_EQ(minimized->code, 1) << minimize.stdoutText() << minimize.stderrText();
  EXPECT_NE(minimize.stderrText().find("converts-valid-input"), std::string::npos)
      << minimize.stderrText();
  std::filesystem::remove_all(dir);
  int reviews = 0;
  for (const auto& line : cluster.requests())
    if (line.rfind("POST ", 0) == 0) {
      EXPECT_EQ(line.rfind("POST " + kProxyPath, 0), 0u) << line;
      ++reviews;
    } else if (line.rfind("  objects", 0) != 0) {
      EXPECT_EQ(line.rfind("GET ", 0), 0u) << line;
    }
  EXPECT_GT(reviews, 2);
}

TEST(Cluster, ACrdTheClusterDoesNotHaveIsAnInputErrorQuotingKubectl) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster;
  auto r = runConvcheck(withArgs({"run", "--crd", "kube://nope.example.com", "--service-proxy"},
                                 cluster.clusterArgs()));
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("kube://nope.example.com"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"nope.example.com\" not found"), std::string::npos) << r.err;
}

TEST(Cluster, WithoutContextTheKubeconfigsCurrentContextIsUsed) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster;
  auto args = cluster.clusterArgs();
  args.resize(2);  // --kubeconfig only: its current context is "nowhere"
  auto r = runConvcheck(withArgs({"run", "--crd", "kube://" + kCrd, "--service-proxy"}, args));
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("127.0.0.1:1"), std::string::npos) << r.err;
  EXPECT_TRUE(cluster.requests().empty());
}

TEST(Cluster, GenerateTakesTheCrdByName) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster;
  ChildProcess generate(withArgs(
      {convcheckBinary(), "generate", "--crd", "kube://" + kCrd, "--version", "v1", "-n", "2"},
      cluster.clusterArgs()));
  auto status = generate.wait(std::chrono::seconds(60));
  ASSERT_TRUE(status && status->success()) << generate.stderrText();
  std::istringstream lines(generate.stdoutText());
  int objects = 0;
  for (std::string line; std::getline(lines, line); ++objects)
    EXPECT_EQ(nlohmann::json::parse(line)["apiVersion"], "stable.example.com/v1") << line;
  EXPECT_EQ(objects, 2);
}

TEST(Cluster, WithoutKubectlTheErrorSaysToInstallIt) {
  ChildProcess run({convcheckBinary(), "generate", "--crd", "kube://" + kCrd, "--version", "v1"},
                   {{"PATH=/nonexistent"}});
  auto status = run.wait(std::chrono::seconds(60));
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->code, 2);
  EXPECT_NE(run.stderrText().find("convcheck reaches clusters through kubectl"), std::string::npos)
      << run.stderrText();
}

}  // namespace
}  // namespace convcheck::test
