// How convcheck runs `kubectl port-forward`, against a stand-in kubectl script (not kubectl): its
// arguments, the local port read from its "Forwarding from" line, the errors when it ends or never
// forwards, and that it is stopped. The real kubectl is driven by
// tests/integration/cluster_port_forward_test.cpp.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "harness/cluster/kubectl_port_forward.h"

namespace convcheck {
namespace {

namespace fs = std::filesystem;

// A stand-in kubectl: a shell script that logs its arguments and its pid, then runs `body`.
class StandInKubectlScript {
 public:
  explicit StandInKubectlScript(const std::string& body) {
    dir_ = fs::temp_directory_path() /
           ("convcheck-pf-kubectl-" + std::to_string(::getpid()) + "-" + std::to_string(count_++));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "kubectl")
        << "#!/bin/sh\ncd " << dir_.string() << "\necho \"$*\" > args.log\necho $$ > pid\n"
        << body << "\n";
    fs::permissions(dir_ / "kubectl", fs::perms::owner_all);
    access.kubectl = (dir_ / "kubectl").string();
    access.kubeconfig = "/tmp/kc.yaml";
    access.context = "staging";
  }
  ~StandInKubectlScript() { fs::remove_all(dir_); }

  std::string read(const std::string& name) const {
    std::ifstream in(dir_ / name);
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  }

  void touch(const std::string& name) const { std::ofstream(dir_ / name) << ""; }

  ClusterAccess access;

 private:
  static inline int count_ = 0;
  fs::path dir_;
};

const ServiceReference kHook{"system", "hook", "/convert", 443};

TEST(KubectlPortForward, ForwardsTheServicePortOn127001WithTheKubeconfigAndContext) {
  EXPECT_EQ(portForwardArgs(kHook),
            (std::vector<std::string>{"port-forward", "--namespace=system", "--address=127.0.0.1",
                                      "service/hook", ":443"}));
  StandInKubectlScript kubectl("echo 'Forwarding from 127.0.0.1:41234 -> 9443'\nexec sleep 30");
  auto started = KubectlPortForward::start(kubectl.access, kHook, std::chrono::seconds(10));
  ASSERT_EQ(started.index(), 0u) << std::get<1>(started);
  EXPECT_EQ(std::get<0>(started)->baseUrl(), "https://127.0.0.1:41234");
  EXPECT_EQ(kubectl.read("args.log"),
            "--kubeconfig=/tmp/kc.yaml --context=staging port-forward --namespace=system "
            "--address=127.0.0.1 service/hook :443");
}

TEST(KubectlPortForward, KubectlIsStoppedWhenTheForwardEnds) {
  StandInKubectlScript kubectl("echo 'Forwarding from 127.0.0.1:41234 -> 9443'\nexec sleep 30");
  pid_t pid = -1;
  {
    auto started = KubectlPortForward::start(kubectl.access, kHook, std::chrono::seconds(10));
    ASSERT_EQ(started.index(), 0u) << std::get<1>(started);
    pid = std::stoi(kubectl.read("pid"));
    EXPECT_EQ(kill(pid, 0), 0) << "kubectl is not running while forwarding";
  }
  errno = 0;
  EXPECT_EQ(kill(pid, 0), -1);  // gone and reaped
  EXPECT_EQ(errno, ESRCH);
}

TEST(KubectlPortForward, AKubectlThatEndsWhileForwardingSaysWhy) {
  StandInKubectlScript kubectl(
      "echo 'Forwarding from 127.0.0.1:41234 -> 9443'\n"
      "while [ ! -f lose ]; do sleep 0.05; done\n"
      "echo 'E1126 portforward.go:404] \"Unhandled Error\" err=\"EOF\"' >&2\n"
      "echo 'error: lost connection to pod' >&2\nexit 1");
  auto started = KubectlPortForward::start(kubectl.access, kHook, std::chrono::seconds(10));
  ASSERT_EQ(started.index(), 0u) << std::get<1>(started);
  auto& forward = *std::get<0>(started);
  EXPECT_EQ(forward.endedEarly(), std::nullopt);
  kubectl.touch("lose");
  std::optional<std::string> ended;
  for (int i = 0; i < 500 && !ended; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ended = forward.endedEarly();
  }
  EXPECT_EQ(ended,
            "kubectl port-forward to service system/hook port 443 ended during the run: "
            "error: lost connection to pod");
}

TEST(KubectlPortForward, AKubectlThatEndsNamesTheServiceAndQuotesKubectl) {
  StandInKubectlScript kubectl(
      "echo 'error: services \"hook\" is forbidden: User \"ci\" cannot get resource "
      "\"services\"' >&2\nexit 1");
  auto started = KubectlPortForward::start(kubectl.access, kHook, std::chrono::seconds(10));
  ASSERT_EQ(started.index(), 1u);
  EXPECT_EQ(std::get<1>(started),
            "kubectl port-forward to service system/hook port 443 ended before forwarding: "
            "error: services \"hook\" is forbidden: User \"ci\" cannot get resource "
            "\"services\"");
}

TEST(KubectlPortForward, AKubectlThatNeverForwardsIsGivenUpAfterTheWait) {
  StandInKubectlScript kubectl("echo 'waiting for pod to be running' >&2\nexec sleep 30");
  const auto before = std::chrono::steady_clock::now();
  auto started = KubectlPortForward::start(kubectl.access, kHook, std::chrono::milliseconds(400));
  const auto took = std::chrono::steady_clock::now() - before;
  ASSERT_EQ(started.index(), 1u);
  EXPECT_EQ(std::get<1>(started),
            "kubectl port-forward to service system/hook port 443 did not start forwarding "
            "within 0.4 s: waiting for pod to be running");
  EXPECT_LT(took, std::chrono::seconds(8));  // stopped with SIGTERM, not left to sleep 30 s
  const pid_t pid = std::stoi(kubectl.read("pid"));
  errno = 0;
  EXPECT_EQ(kill(pid, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

TEST(KubectlPortForward, OnlyA127001ListenerCounts) {
  StandInKubectlScript kubectl("echo 'Forwarding from [::1]:41234 -> 9443'\nexec sleep 30");
  auto started = KubectlPortForward::start(kubectl.access, kHook, std::chrono::milliseconds(300));
  ASSERT_EQ(started.index(), 1u);
  EXPECT_NE(std::get<1>(started).find("did not start forwarding"), std::string::npos)
      << std::get<1>(started);
}

TEST(KubectlPortForward, AMissingKubectlSaysHowConvcheckReachesClusters) {
  ClusterAccess access;
  access.kubectl = "/nonexistent/kubectl";
  auto started = KubectlPortForward::start(access, kHook, std::chrono::seconds(1));
  ASSERT_EQ(started.index(), 1u);
  EXPECT_NE(std::get<1>(started).find("service system/hook"), std::string::npos);
  EXPECT_NE(std::get<1>(started).find("install it or put it on PATH"), std::string::npos);
}

}  // namespace
}  // namespace convcheck
