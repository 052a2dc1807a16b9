// convcheck killed with SIGKILL (no handler runs, no destructor) leaves no process behind: the
// webhook it started with -- COMMAND, fuzz's --jobs processes, and kubectl port-forward and kubectl
// proxy (against the stand-in cluster) all end with it (harness/process: the parent-death
// signal). This test process adopts the orphans (a child subreaper), so it sees each one end.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <thread>

#include "tests/integration/convcheck_binary.h"
#include "tests/integration/stand_in_cluster.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {
namespace {

using namespace std::chrono_literals;

// The children of every thread of `pid`, from /proc.
std::vector<pid_t> childrenOf(pid_t pid) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& task :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
    std::ifstream children(task.path() / "children");
    for (pid_t child; children >> child;) out.push_back(child);
  }
  return out;
}

// Every process below `pid`.
std::vector<pid_t> descendantsOf(pid_t pid) {
  std::vector<pid_t> out;
  for (pid_t child : childrenOf(pid)) {
    out.push_back(child);
    for (pid_t below : descendantsOf(child)) out.push_back(below);
  }
  return out;
}

std::string commandOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  for (char& c : text)
    if (c == '\0') c = ' ';
  return text;
}

// Whether `pid` (adopted by this process once its parent died) has ended within `limit`.
bool endsWithin(pid_t pid, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  do {
    if (waitpid(pid, nullptr, WNOHANG) == pid) return true;
    if (kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::this_thread::sleep_for(20ms);
  } while (std::chrono::steady_clock::now() < deadline);
  return false;
}

// Starts convcheck with `args`, waits until it has started `expected` processes (a command line
// holding `marker` among them) and has run `settle` more, kills it with SIGKILL, and returns the
// command lines of its processes that are still running 10 s later (ending them then).
std::vector<std::string> leftAfterSigkill(const std::vector<std::string>& args,
                                          std::size_t expected, const std::string& marker,
                                          std::chrono::milliseconds settle = 500ms) {
  EXPECT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  std::vector<std::string> argv = {convcheckBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  ChildProcess convcheck(argv, {{"NO_COLOR=1"}, ""});
  std::vector<pid_t> started;
  for (int i = 0; i < 600 && convcheck.running(); ++i) {
    started = descendantsOf(convcheck.pid());
    const bool marked = std::any_of(started.begin(), started.end(), [&](pid_t p) {
      return commandOf(p).find(marker) != std::string::npos;
    });
    if (started.size() >= expected && marked) break;
    std::this_thread::sleep_for(100ms);
  }
  std::this_thread::sleep_for(settle);
  started = descendantsOf(convcheck.pid());
  EXPECT_GE(started.size(), expected) << convcheck.stderrText();
  std::vector<std::string> commands;
  for (pid_t p : started) commands.push_back(commandOf(p));
  // Killed while it works, not after it ended on its own (and stopped its children itself).
  EXPECT_TRUE(convcheck.running()) << convcheck.stderrText();
  convcheck.signal(SIGKILL);
  // Its children are looked at before it is reaped: reaping it (the test's ChildProcess) also
  // ends what is left of its process group, which would hide a child that shares the group.
  EXPECT_TRUE(convcheck.endsWithin(10s));
  std::vector<std::string> left;
  for (std::size_t i = 0; i < started.size(); ++i)
    if (!endsWithin(started[i], 10s)) {
      left.push_back(commands[i]);
      kill(started[i], SIGKILL);
      waitpid(started[i], nullptr, 0);
    }
  convcheck.wait(10s);
  return left;
}

std::vector<std::string> startedWebhook() {
  return {"--",     ExampleWebhook::binaryPath(),
          "--cert", "{certdir}/tls.crt",
          "--key",  "{certdir}/tls.key",
          "--host", "127.0.0.1",
          "--port", "{port}"};
}

TEST(NoChildLeft, AfterRunWithAStartedWebhook) {
  std::vector<std::string> args = {
      "run", "--crd", ExampleWebhook::cronTabCrdPath(), "--duration", "5m", "--seed", "1"};
  for (const auto& a : startedWebhook()) args.push_back(a);
  EXPECT_EQ(leftAfterSigkill(args, 1, "example-webhook"), std::vector<std::string>{});
}

TEST(NoChildLeft, AfterFuzzWithTwoProcessesAndAStartedWebhook) {
  ScratchDir scratch("convcheck-no-child");
  std::vector<std::string> args = {"fuzz",
                                   "--crd",
                                   ExampleWebhook::cronTabCrdPath(),
                                   "--jobs",
                                   "2",
                                   "--max-total-time",
                                   "5m",
                                   "--seed",
                                   "1",
                                   "--no-coverage",
                                   "--report-dir",
                                   (scratch.path() / "r").string()};
  for (const auto& a : startedWebhook()) args.push_back(a);
  // The webhook, then the two fuzzing processes once it answered, and the second one's own webhook.
  EXPECT_EQ(leftAfterSigkill(args, 4, "example-webhook"), std::vector<std::string>{});
}

TEST(NoChildLeft, AfterRunThroughKubectlPortForward) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInClusterOptions options;
  options.webhookDnsNames = {"crontab-webhook.convcheck-test.svc"};
  options.caBundle = true;
  StandInCluster cluster(options);
  const auto args = withArgs({"run", "--crd", "kube://" + kStandInCrd, "--port-forward",
                              "--duration", "5m", "--seed", "1"},
                             cluster.clusterArgs());
  EXPECT_EQ(leftAfterSigkill(args, 1, "port-forward"), std::vector<std::string>{});
}

TEST(NoChildLeft, AfterRunThroughKubectlProxy) {
  if (auto why = missingClusterTools(); !why.empty()) GTEST_SKIP() << why;
  StandInCluster cluster;
  const auto args = withArgs({"run", "--crd", "kube://" + kStandInCrd, "--service-proxy",
                              "--duration", "5m", "--seed", "1"},
                             cluster.clusterArgs());
  EXPECT_EQ(leftAfterSigkill(args, 1, "proxy"), std::vector<std::string>{});
}

}  // namespace
}  // namespace convcheck::test
