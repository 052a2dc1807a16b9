// The one owner of child processes (harness/process): a process group of its own, the
// parent-death signal, no inherited descriptor, default signals, the group stopped as a whole,
// and a command that cannot run named in the error.
#include "harness/process/child_process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace convcheck {
namespace {

using namespace std::chrono_literals;

// A pipe whose read end collects what a child writes to stdout.
class Output {
 public:
  Output() { EXPECT_EQ(pipe2(fds_, O_CLOEXEC), 0); }
  ~Output() {
    for (int fd : fds_)
      if (fd >= 0) close(fd);
  }
  int writeEnd() const { return fds_[1]; }
  // Everything written once every writer closed it (the child ended).
  std::string text() {
    close(fds_[1]);
    fds_[1] = -1;
    std::string out;
    char buffer[4096];
    for (ssize_t n; (n = read(fds_[0], buffer, sizeof buffer)) > 0;)
      out.append(buffer, static_cast<std::size_t>(n));
    return out;
  }
  // The first line, as soon as it is written.
  std::string line() {
    std::string out;
    char c;
    while (read(fds_[0], &c, 1) == 1 && c != '\n') out += c;
    return out;
  }

 private:
  int fds_[2] = {-1, -1};
};

ChildProcess started(const ChildSpec& spec) {
  auto result = ChildProcess::start(spec);
  if (auto* error = std::get_if<std::string>(&result)) {
    ADD_FAILURE() << *error;
    std::abort();
  }
  return std::move(std::get<ChildProcess>(result));
}

// Orphans of this test's children are reparented to it, so it can see how they ended.
void adoptOrphans() { ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0); }

// How the process `pid` (a child of this one, by birth or adoption) ended, waiting up to 10 s.
std::optional<int> signalThatEnded(pid_t pid) {
  for (int i = 0; i < 1000; ++i) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (done < 0) return std::nullopt;
    std::this_thread::sleep_for(10ms);
  }
  return std::nullopt;
}

// Whether the process `pid` is gone (reaped here, or by its parent) within 10 s.
bool gone(pid_t pid) {
  for (int i = 0; i < 1000; ++i) {
    if (waitpid(pid, nullptr, WNOHANG) == pid) return true;
    if (kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

TEST(ChildProcess, RunsInAProcessGroupOfItsOwn) {
  ChildProcess sleeper = started({{"sleep", "30"}});
  EXPECT_EQ(getpgid(sleeper.pid()), sleeper.pid());
  EXPECT_NE(getpgid(sleeper.pid()), getpgrp());
}

TEST(ChildProcess, GetsNoDescriptorOfTheParentsEvenWithoutCloseOnExec) {
  // 198 and 199 are AFL++'s fork-server descriptors: an instrumented webhook that inherited them
  // would wait for a fork server.
  const int devNull = open("/dev/null", O_RDWR);
  ASSERT_EQ(dup2(devNull, 198), 198);
  ASSERT_EQ(dup2(devNull, 199), 199);
  close(devNull);
  Output out;
  ChildProcess ls = started({{"/bin/sh", "-c", "ls /proc/$$/fd"}, {}, "", out.writeEnd()});
  EXPECT_TRUE(ls.wait().success());
  close(198);
  close(199);
  std::istringstream listed(out.text());
  std::vector<std::string> fds;
  for (std::string fd; listed >> fd;) fds.push_back(fd);
  EXPECT_EQ(fds, (std::vector<std::string>{"0", "1", "2"}));
}

TEST(ChildProcess, StartsWithDefaultSignalsAndNoneBlocked) {
  sigset_t blocked, previous;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &blocked, &previous);
  auto* const pipeBefore = signal(SIGPIPE, SIG_IGN);
  Output out;
  ChildProcess grep = started(
      // exec: the shell's own mask while it waits for a child it forked is not the child's.
      {{"/bin/sh", "-c", "exec grep -E '^Sig(Blk|Ign)' /proc/self/status"},
       {},
       "",
       out.writeEnd()});
  signal(SIGPIPE, pipeBefore);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  EXPECT_TRUE(grep.wait().success());
  EXPECT_EQ(out.text(), "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
}

TEST(ChildProcess, TakesTheEnvironmentAddedAndTheWorkingDirectory) {
  Output out;
  ChildProcess sh = started({{"/bin/sh", "-c", "echo $CONVCHECK_PROCESS_TEST; pwd"},
                             {"CONVCHECK_PROCESS_TEST=added"},
                             "/",
                             out.writeEnd()});
  EXPECT_TRUE(sh.wait().success());
  EXPECT_EQ(out.text(), "added\n/\n");
}

TEST(ChildProcess, ACommandThatCannotRunIsAnErrorNamingIt) {
  auto result = ChildProcess::start({{"convcheck-no-such-program"}});
  ASSERT_EQ(result.index(), 1u);
  EXPECT_EQ(std::get<1>(result),
            "cannot execute convcheck-no-such-program: No such file or directory");
}

TEST(ChildProcess, EndedSaysHowItEndedAndWaitGivesTheSameWithItsMemory) {
  ChildProcess sh = started({{"/bin/sh", "-c", "exit 3"}});
  std::optional<ExitStatus> ended = sh.waitFor(10s);
  ASSERT_TRUE(ended.has_value());
  EXPECT_EQ(ended->describe(), "exited with code 3");
  // Not reaped yet: the pid (and the group id) stays taken.
  EXPECT_EQ(kill(sh.pid(), 0), 0);
  const ExitStatus status = sh.wait();
  EXPECT_EQ(status.code, 3);
  EXPECT_GT(status.maxRssKiB, 0);
}

TEST(ChildProcess, StopEndsWhatTheCommandStartedToo) {
  adoptOrphans();
  Output out;
  ChildProcess sh =
      started({{"/bin/sh", "-c", "sleep 30 & echo $!; wait"}, {}, "", out.writeEnd()});
  const pid_t background = std::stoi(out.line());
  const ExitStatus status = sh.stop(5s);
  EXPECT_EQ(status.describe(), "killed by signal 15 (Terminated)");
  EXPECT_TRUE(gone(background)) << "the command's own child outlived it";
}

TEST(ChildProcess, ItEndsWithTheThreadThatStartedIt) {
  std::optional<ChildProcess> sleeper;
  std::thread([&] { sleeper.emplace(started({{"sleep", "30"}})); }).join();
  const std::optional<ExitStatus> ended = sleeper->waitFor(10s);
  ASSERT_TRUE(ended.has_value()) << "still running after the thread that started it ended";
  EXPECT_EQ(ended->signal, SIGKILL);
}

TEST(ChildProcess, AParentKilledWithSigkillLeavesNoChild) {
  adoptOrphans();
  int pids[2];
  ASSERT_EQ(pipe2(pids, O_CLOEXEC), 0);
  auto forked = ChildProcess::fork([&] {
    auto sleeper = ChildProcess::start({{"sleep", "30"}});
    const pid_t pid = std::get<ChildProcess>(sleeper).pid();
    (void)!write(pids[1], &pid, sizeof pid);
    pause();
  });
  ASSERT_EQ(forked.index(), 0u);
  ChildProcess& parent = std::get<ChildProcess>(forked);
  close(pids[1]);
  pid_t grandchild = -1;
  ASSERT_EQ(read(pids[0], &grandchild, sizeof grandchild), static_cast<ssize_t>(sizeof grandchild));
  close(pids[0]);
  parent.signal(SIGKILL);
  EXPECT_EQ(parent.wait().signal, SIGKILL);
  EXPECT_EQ(signalThatEnded(grandchild), SIGKILL) << "its child outlived a SIGKILL";
}

TEST(ChildProcess, AForkedProcessRunsTheBodyAndStaysInTheParentsGroup) {
  auto forked = ChildProcess::fork([] { _exit(getpgrp() == getpgid(getppid()) ? 7 : 1); });
  ASSERT_EQ(forked.index(), 0u);
  EXPECT_EQ(std::get<ChildProcess>(forked).wait().code, 7);
}

}  // namespace
}  // namespace convcheck
