#include "engine/fuzz/fuzz_processes.h"

#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "engine/fuzz/found_case.h"
#include "engine/fuzz/fuzz_session.h"
#include "engine/fuzz/libfuzzer_driver.h"

namespace convcheck {

namespace {

// libFuzzer's exit code when SIGINT or SIGTERM interrupts it (-interrupted_exitcode).
constexpr int kLibFuzzerInterruptedExit = 72;

}  // namespace

std::vector<std::string> libFuzzerArgs(const FuzzConfig& config, const std::string& inputs,
                                       int job) {
  // No leak check per input: it would judge convcheck's own caches, not the webhook. Quiet: the
  // console has convcheck's own progress lines (fuzz[N]: ...), not libFuzzer's INFO, #N NEW and
  // stat:: lines, which speak of its internals.
  std::vector<std::string> args = {"convcheck-fuzz",       "-max_len=1048576",
                                   "-verbosity=0",         "-print_final_stats=0",
                                   "-use_value_profile=0", "-detect_leaks=0"};
  // Side by side, the processes read what the others added to the shared directory.
  args.push_back(config.jobs > 1 ? "-reload=5" : "-reload=0");
  if (config.maxTotalTime > 0)
    args.push_back(fmt::format("-max_total_time={}", config.maxTotalTime));
  if (config.runs >= 0) args.push_back(fmt::format("-runs={}", config.runs));
  // libFuzzer's seed is 32 bits, 0 meaning "pick one": each process gets its own.
  const std::uint64_t seed = (config.run.seed + static_cast<std::uint64_t>(job)) % 4294967295ULL;
  args.push_back(fmt::format("-seed={}", seed == 0 ? 1 : seed));
  args.push_back(inputs);
  return args;
}

ChildrenOutcome fuzzInChildren(const KindContext& kind, const FuzzConfig& config,
                               const TargetFactory& makeTarget, const std::string& inputs,
                               const std::string& foundDir) {
  std::fflush(stdout);
  std::fflush(stderr);
  ChildrenOutcome outcome;
  std::vector<pid_t> children;
  for (int job = 0; job < config.jobs; ++job) {
    const pid_t child = fork();
    if (child < 0) {
      outcome.failure = fmt::format("fork failed: {}", std::strerror(errno));
      break;
    }
    if (child == 0) {
      FuzzSession session(kind, config, makeTarget, foundDir, job);
      runLibFuzzer(libFuzzerArgs(config, inputs, job), session);
    }
    children.push_back(child);
  }
  sigset_t stopSignals, previous;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGINT);
  sigaddset(&stopSignals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stopSignals, &previous);
  // Polled rather than waited for in turn: with --stop-on-problem the first problem stops every
  // process, and a webhook started for the run is a child of this process too, which
  // waitpid(-1) would reap.
  std::vector<pid_t> running = children;
  bool stopping = false;
  while (!running.empty()) {
    const timespec now{0, 0};
    if (sigtimedwait(&stopSignals, nullptr, &now) > 0) outcome.interrupted = true;
    if (!stopping && (outcome.interrupted || (config.stopOnProblem && anyFoundCase(foundDir)))) {
      stopping = true;
      for (const pid_t child : running) kill(child, SIGUSR1);
    }
    std::erase_if(running, [&](pid_t child) {
      int status = 0;
      const pid_t done = waitpid(child, &status, WNOHANG);
      if (done == 0 || (done < 0 && errno == EINTR)) return false;
      const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      const bool clean = done < 0 || code == 0 || code == kFuzzUnreachableExit ||
                         (outcome.interrupted && code == kLibFuzzerInterruptedExit);
      if (!clean && outcome.failure.empty())
        outcome.failure = WIFSIGNALED(status) ? fmt::format("signal {}", WTERMSIG(status))
                                              : fmt::format("exit {}", code);
      return true;
    });
    if (!running.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return outcome;
}

}  // namespace convcheck
