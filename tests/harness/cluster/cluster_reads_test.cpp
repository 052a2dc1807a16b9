// What convcheck reads from a cluster and how it asks kubectl: a scripted kubectl logs its
// arguments and answers from canned files, so paths, paging and errors are checked exactly.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/cluster/cluster_reads.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;

// A kubectl that appends its arguments to args.log and prints answer-N.json for its Nth call
// (or, when fail.txt exists, prints it to stderr and exits 1).
class ScriptedKubectl {
 public:
  ScriptedKubectl() {
    dir_ = fs::temp_directory_path() /
           ("convcheck-kubectl-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "kubectl")
        << "#!/bin/sh\ncd " << dir_.string() << "\necho \"$*\" >> args.log\n"
        << "if [ -f fail.txt ]; then cat fail.txt >&2; exit 1; fi\n"
        << "n=$(wc -l < args.log)\ncat answer-$n.json\n";
    fs::permissions(dir_ / "kubectl", fs::perms::owner_all);
    access.kubectl = (dir_ / "kubectl").string();
    access.kubeconfig = "/tmp/kc.yaml";
    access.context = "staging";
  }
  ~ScriptedKubectl() { fs::remove_all(dir_); }

  void answer(int call, const std::string& body) {
    std::ofstream(dir_ / ("answer-" + std::to_string(call) + ".json")) << body;
  }
  void fail(const std::string& message) { std::ofstream(dir_ / "fail.txt") << message; }
  std::vector<std::string> calls() const {
    std::ifstream in(dir_ / "args.log");
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }

  ClusterAccess access;

 private:
  static inline int counter_ = 0;
  fs::path dir_;
};

Crd widgets() {
  Crd crd;
  crd.name = "widgets.example.com";
  crd.group = "example.com";
  crd.plural = "widgets";
  crd.kind = "Widget";
  return crd;
}

TEST(ClusterReads, KubeSchemeNamesACrd) {
  EXPECT_EQ(clusterCrdName("kube://widgets.example.com"), "widgets.example.com");
  EXPECT_EQ(clusterCrdName("widgets.yaml"), "");
  EXPECT_EQ(clusterCrdName("-"), "");
}

TEST(ClusterReads, TheCrdIsARawGetWithTheKubeconfigAndContext) {
  ScriptedKubectl kubectl;
  kubectl.answer(1, R"({"kind":"CustomResourceDefinition"})");
  RawGet got = readClusterCrd(kubectl.access, "widgets.example.com");
  ASSERT_TRUE(gotBody(got)) << std::get<1>(got);
  EXPECT_EQ(std::get<0>(got), R"({"kind":"CustomResourceDefinition"})");
  EXPECT_EQ(kubectl.calls(),
            std::vector<std::string>{
                "--kubeconfig=/tmp/kc.yaml --context=staging get --raw "
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com "
                "--request-timeout=60s"});
}

TEST(ClusterReads, AFailedGetNamesThePathAndQuotesKubectl) {
  ScriptedKubectl kubectl;
  kubectl.fail("Error from server (Forbidden): customresourcedefinitions is forbidden\n");
  RawGet got = readClusterCrd(kubectl.access, "widgets.example.com");
  ASSERT_FALSE(gotBody(got));
  EXPECT_EQ(std::get<1>(got),
            "GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com: "
            "kubectl: Error from server (Forbidden): customresourcedefinitions is forbidden");
}

TEST(ClusterReads, AMissingKubectlSaysHowConvcheckReachesClusters) {
  ClusterAccess access;
  access.kubectl = "/nonexistent/kubectl";
  RawGet got = getRaw(access, "/version");
  ASSERT_FALSE(gotBody(got));
  EXPECT_NE(std::get<1>(got).find("cannot execute /nonexistent/kubectl"), std::string::npos)
      << std::get<1>(got);
  EXPECT_NE(std::get<1>(got).find("install it or put it on PATH"), std::string::npos);
}

TEST(ClusterReads, StoredObjectsArePagedWithTheEscapedContinueTokenUpToTheLimit) {
  ScriptedKubectl kubectl;
  kubectl.answer(1, R"({"kind":"WidgetList","metadata":{"continue":"a+b/c="},
                        "items":[{"metadata":{"name":"one"}},
                                 {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"two"}}]})");
  kubectl.answer(2, R"({"kind":"WidgetList","metadata":{"continue":"more"},
                        "items":[{"metadata":{"name":"three"}},{"metadata":{"name":"four"}}]})");
  StoredObjects read = readStoredObjects(kubectl.access, widgets(), "v1", 3);
  EXPECT_EQ(read.error, "");
  ASSERT_EQ(read.objects.size(), 3u);  // the limit, though the second page holds two
  EXPECT_EQ(read.objects[0]["apiVersion"], "example.com/v1");  // filled in where absent
  EXPECT_EQ(read.objects[0]["kind"], "Widget");
  EXPECT_EQ(read.objects[2]["metadata"]["name"], "three");
  auto calls = kubectl.calls();
  ASSERT_EQ(calls.size(), 2u);  // no third page once the limit is reached
  EXPECT_NE(calls[0].find("get --raw /apis/example.com/v1/widgets?limit=3 "), std::string::npos);
  EXPECT_NE(calls[1].find("/apis/example.com/v1/widgets?limit=1&continue=a%2Bb%2Fc%3D "),
            std::string::npos)
      << calls[1];
}

TEST(ClusterReads, AnAnswerThatIsNotAListIsAnError) {
  ScriptedKubectl kubectl;
  kubectl.answer(1, R"({"kind":"Status"})");
  StoredObjects read = readStoredObjects(kubectl.access, widgets(), "v1", 5);
  EXPECT_TRUE(read.objects.empty());
  EXPECT_EQ(read.error,
            "GET /apis/example.com/v1/widgets?limit=5: the answer is not a list (no "
            "items array)");
}

TEST(ClusterReads, TheServiceProxyPathNamesSchemeServiceAndPort) {
  EXPECT_EQ(serviceProxyPath(ServiceReference{"system", "hook", "/convert", 9443}),
            "/api/v1/namespaces/system/services/https:hook:9443/proxy/convert");
  EXPECT_EQ(serviceProxyPath(ServiceReference{"system", "hook", "", 443}),
            "/api/v1/namespaces/system/services/https:hook:443/proxy/");
}

}  // namespace
}  // namespace convcheck
