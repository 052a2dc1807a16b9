// ChildProcess: exec without a shell, captured output, waiting for lines, stopping, exit codes.
#include "tests/support/child_process.h"

#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <thread>

#include <gtest/gtest.h>

namespace convcheck::test {
namespace {

using namespace std::chrono_literals;

TEST(ChildProcess, CapturesStdoutAndFindsALineWithItsGroups) {
  ChildProcess echo({"/bin/echo", "listening on https://127.0.0.1:4242"});
  auto line = echo.waitForLine(std::regex(R"(listening on https://127\.0\.0\.1:(\d+))"), 5s);
  ASSERT_TRUE(line.has_value()) << echo.stdoutText();
  EXPECT_EQ((*line)[1], "4242");
  auto status = echo.wait(5s);
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->success());
}

TEST(ChildProcess, ArgumentsAreNotInterpretedByAShell) {
  ChildProcess echo({"/bin/echo", "$HOME;", "*", "`id`"});
  ASSERT_TRUE(echo.wait(5s).has_value());
  EXPECT_EQ(echo.stdoutText(), "$HOME; * `id`\n");
}

TEST(ChildProcess, WaitForLineGivesUpWhenTheProcessEnds) {
  ChildProcess echo({"/bin/echo", "something else"});
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(echo.waitForLine(std::regex("never"), 20s).has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
}

TEST(ChildProcess, WaitForLineTimesOut) {
  ChildProcess sleeper({"/bin/sleep", "30"});
  EXPECT_FALSE(sleeper.waitForLine(std::regex("x"), 100ms).has_value());
  EXPECT_TRUE(sleeper.running());
}

TEST(ChildProcess, CapturesStderrAndTheExitCode) {
  ChildProcess ls({"/bin/ls", "/nonexistent-convcheck-path"});
  auto status = ls.wait(5s);
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->exited);
  EXPECT_NE(status->code, 0);
  EXPECT_NE(ls.stderrText().find("nonexistent-convcheck-path"), std::string::npos);
  EXPECT_TRUE(ls.waitForLine(std::regex("nonexistent"), 1s, Stream::Stderr).has_value());
}

TEST(ChildProcess, StopSendsSigterm) {
  ChildProcess sleeper({"/bin/sleep", "30"});
  auto status = sleeper.stop(5s);
  EXPECT_FALSE(status.exited);
  EXPECT_EQ(status.signal, SIGTERM);
  EXPECT_FALSE(sleeper.running());
}

TEST(ChildProcess, StopFallsBackToSigkillWhenSigtermIsIgnored) {
  // An ignored signal stays ignored across exec, so sleep itself ignores SIGTERM.
  ChildProcess stubborn({"/bin/sh", "-c", "trap '' TERM; echo ready; exec /bin/sleep 30"});
  ASSERT_TRUE(stubborn.waitForLine(std::regex("ready"), 5s).has_value());
  std::this_thread::sleep_for(100ms);  // let the shell reach exec
  auto status = stubborn.stop(300ms);
  EXPECT_EQ(status.signal, SIGKILL);
}

TEST(ChildProcess, PassesExtraEnvironment) {
  ChildProcess env({"/usr/bin/env"}, {.extraEnv = {"CONVCHECK_CHILD_TEST=yes"}});
  EXPECT_TRUE(env.waitForLine(std::regex("^CONVCHECK_CHILD_TEST=yes$"), 5s).has_value());
}

TEST(ChildProcess, RunsInTheGivenWorkingDirectory) {
  ChildProcess pwd({"/bin/pwd"}, {.workingDir = "/"});
  EXPECT_TRUE(pwd.waitForLine(std::regex("^/$"), 5s).has_value());
}

TEST(ChildProcess, ThrowsNamingAProgramThatCannotBeExecuted) {
  try {
    ChildProcess missing({"/nonexistent/program"});
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/program"), std::string::npos) << e.what();
  }
}

TEST(ChildProcess, DestructorReapsARunningChild) {
  pid_t pid;
  {
    ChildProcess sleeper({"/bin/sleep", "30"});
    pid = sleeper.pid();
  }
  // Already reaped: there is no child with that pid left to wait for.
  errno = 0;
  EXPECT_EQ(waitpid(pid, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

}  // namespace
}  // namespace convcheck::test
