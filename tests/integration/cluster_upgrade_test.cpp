// The pre-upgrade check against a live cluster, read-only: the old release's CRD by name
// (kube://NAME, status.storedVersions included), its stored objects (--cluster-objects) and its
// webhook through the API server's service proxy, all through the real kubectl; the new release
// from files and a command. No API server can be installed here: kubectl talks to
// tests/harness/cluster/apiserver-stand-in.js, a loopback HTTPS stand-in serving the few endpoints
// convcheck uses (here the first release's Widget CRD and six stored Widgets) and logging every
// request's verb, so the test can say that nothing was written.
#include <gtest/gtest.h>

#include "tests/integration/convcheck_binary.h"
#include "tests/integration/stand_in_cluster.h"

namespace convcheck::test {
namespace {

const std::string kWidgetCrd = "widgets.example.convcheck.dev";
const std::string kProxyPath =
    "/api/v1/namespaces/convcheck-test/services/https:widget-webhook:443/proxy/convert";

StandInClusterOptions widgetCluster() {
  StandInClusterOptions options;
  options.crdFile = "widgets-crd.json";
  options.objectsFile = "widget-objects.json";
  options.service = "widget-webhook";
  return options;
}

ConvcheckResult preUpgrade(const StandInCluster& cluster, const std::vector<std::string>& flags) {
  std::string command = ExampleWebhook::binaryPath() + " --release 2";
  for (const auto& f : flags) command += " " + f;
  return runConvcheck(withArgs(
      {"upgrade", "--crd", "kube://" + kWidgetCrd, "--service-proxy", "--cluster-objects", "10",
       "--objects", "0", "--new-crd",
       ExampleWebhook::examplesDir() + "/crds/release2/widgets.example.convcheck.dev.yaml",
       "--new-webhook-command",
       command + " --cert {certdir}/tls.crt --key {certdir}/tls.key --port {port}", "--seed", "1"},
      cluster.clusterArgs()));
}

TEST(ClusterUpgrade, ThePreUpgradeCheckReadsTheClusterAndWritesNothing) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster(widgetCluster());
  auto r = preUpgrade(cluster, {});
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  const auto& kind = r.json["kinds"][0];
  // status.storedVersions came with the CRD from the API server, the new storage version added.
  EXPECT_EQ(kind["storedVersions"], nlohmann::json::array({"v1alpha1", "v1beta1", "v1"}));
  EXPECT_NE(r.out.find("--cluster-objects: read 6 stored object(s) at v1beta1"), std::string::npos)
      << r.out;
  for (const auto& line : cluster.requests()) {
    if (line.rfind("  objects", 0) == 0) {
      EXPECT_NE(line.find("/widget-"), std::string::npos) << line;  // the cluster's objects only
    }
  }
  // The one verb that is not a read: the old webhook's reviews through services/proxy.
  const RequestVerbs verbs = requestVerbs(cluster.requests(), kProxyPath);
  EXPECT_GT(verbs.proxyPosts, 0);
  EXPECT_EQ(verbs.otherWrites, std::vector<std::string>{});
  EXPECT_TRUE(anyLine(cluster.requests(),
                      "GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + kWidgetCrd));
  EXPECT_TRUE(anyLine(cluster.requests(), "GET /apis/example.convcheck.dev/v1beta1/widgets"));
}

TEST(ClusterUpgrade, AFaultOfTheNewReleaseIsFoundOnTheClustersStoredObjects) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster(widgetCluster());
  auto r = preUpgrade(cluster, {"--fault", "converts-stored-differently"});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  const auto& problems = r.json["kinds"][0]["problems"];
  ASSERT_EQ(problems.size(), 1u) << r.out;
  EXPECT_EQ(problems[0]["key"], "field|spec.size");
  EXPECT_NE(r.out.find("found by: cluster "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace convcheck::test
