#include "engine/fuzz/fuzz_processes.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "engine/fuzz/found_case.h"
#include "engine/fuzz/fuzz_session.h"
#include "engine/fuzz/libfuzzer_driver.h"
#include "harness/process/child_process.h"

namespace convcheck {

namespace {

// libFuzzer's exit code when SIGINT or SIGTERM interrupts it (-interrupted_exitcode).
constexpr int kLibFuzzerInterruptedExit = 72;

void writeAll(int fd, const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Copies `fd` to stderr until every writer closed it, without the lines libFuzzer starts with
// "INFO: " (its verbosity 0 still prints the custom mutator found, the schedule and the corpus
// read, per process).
void copyWithoutLibFuzzerInfo(int fd) {
  std::string pending;
  char buffer[4096];
  auto flush = [&](std::size_t end) {
    if (pending.rfind("INFO: ", 0) != 0) writeAll(STDERR_FILENO, pending.substr(0, end));
    pending.erase(0, end);
  };
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(buffer, static_cast<std::size_t>(n));
    for (std::size_t end; (end = pending.find('\n')) != std::string::npos;) flush(end + 1);
  }
  if (!pending.empty()) flush(pending.size());
}

// The fuzzing processes' stderr through a pipe, copied to convcheck's by a thread without
// libFuzzer's INFO lines; everything else (convcheck's own lines, a crash report) passes as is.
class ChildStderr {
 public:
  ChildStderr() {
    if (pipe2(fds_, O_CLOEXEC) != 0) fds_[0] = fds_[1] = -1;
  }
  ChildStderr(const ChildStderr&) = delete;
  ChildStderr& operator=(const ChildStderr&) = delete;
  // In a child: its stderr is the pipe.
  void attach() const {
    if (fds_[1] >= 0) dup2(fds_[1], STDERR_FILENO);
  }
  // In the parent, once every child holds the pipe: the copying starts.
  void copy() {
    if (fds_[1] < 0) return;
    close(fds_[1]);
    fds_[1] = -1;
    reader_ = std::thread(copyWithoutLibFuzzerInfo, fds_[0]);
  }
  // After the children ended: the last of their lines copied.
  ~ChildStderr() {
    if (fds_[1] >= 0) close(fds_[1]);
    if (reader_.joinable()) reader_.join();
    if (fds_[0] >= 0) close(fds_[0]);
  }

 private:
  int fds_[2];
  std::thread reader_;
};

// Fuzzing process `job`, in its child: the webhook it fuzzes (its own, when `ownWebhook` starts
// one for it), its session and libFuzzer, which ends the process.
[[noreturn]] void fuzzProcess(const KindContext& kind, const FuzzConfig& config,
                              const TargetFactory& makeTarget, const std::string& inputs,
                              const std::string& foundDir, const StartProcessWebhook& ownWebhook,
                              int job) {
  FuzzConfig own = config;
  TargetFactory targets = makeTarget;
  std::unique_ptr<ProcessWebhook> webhook;
  if (ownWebhook && job > 0) {
    auto started = ownWebhook(job);
    if (auto* error = std::get_if<std::string>(&started)) {
      std::ofstream(foundDir + "/unreachable") << *error << "\n";
      std::fflush(stderr);
      std::_Exit(kFuzzUnreachableExit);
    }
    webhook = std::move(std::get<std::unique_ptr<ProcessWebhook>>(started));
    own.target = webhook->target();
    own.coverage = webhook->coverage();
    targets = webhook->targets();
    fmt::print(stderr, "fuzz[{}]: its own webhook at {}{}\n", job, own.target.url,
               own.coverage ? ", with its own AFL++ coverage map" : "");
  }
  FuzzSession session(kind, own, targets, foundDir, job);
  session.own(std::move(webhook));
  runLibFuzzer(libFuzzerArgs(config, inputs, job), session);
}

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
  // --runs counts cases, libFuzzer's -runs inputs: its first input (the empty probe) is one case,
  // each other one a flight of --in-flight cases (the session runs no case beyond --runs).
  if (config.runs >= 0) {
    const std::int64_t flight = std::max(config.inFlight, 1);
    const std::int64_t inputs =
        config.runs <= 1 ? config.runs : 1 + (config.runs - 1 + flight - 1) / flight;
    args.push_back(fmt::format("-runs={}", inputs));
  }
  // libFuzzer's seed is 32 bits, 0 meaning "pick one": each process gets its own.
  const std::uint64_t seed = (config.run.seed + static_cast<std::uint64_t>(job)) % 4294967295ULL;
  args.push_back(fmt::format("-seed={}", seed == 0 ? 1 : seed));
  args.push_back(inputs);
  return args;
}

ChildrenOutcome fuzzInChildren(const KindContext& kind, const FuzzConfig& config,
                               const TargetFactory& makeTarget, const std::string& inputs,
                               const std::string& foundDir, const std::optional<RunBudget>& budget,
                               const StartProcessWebhook& ownWebhook) {
  std::fflush(stdout);
  std::fflush(stderr);
  ChildrenOutcome outcome;
  ChildStderr childStderr;  // destroyed last: after the children ended
  std::vector<ChildProcess> running;
  for (int job = 0; job < config.jobs; ++job) {
    auto forked = ChildProcess::fork([&] {
      childStderr.attach();
      fuzzProcess(kind, config, makeTarget, inputs, foundDir, ownWebhook, job);
    });
    if (auto* error = std::get_if<std::string>(&forked)) {
      outcome.failure = *error;
      break;
    }
    running.push_back(std::move(std::get<ChildProcess>(forked)));
  }
  sigset_t stopSignals, previous;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGINT);
  sigaddset(&stopSignals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stopSignals, &previous);
  childStderr.copy();  // its thread blocks the stop signals too, which sigtimedwait below takes
  // Polled rather than waited for in turn: with --stop-on-problem the first problem stops every
  // process.
  bool stopping = false;
  while (!running.empty()) {
    const timespec now{0, 0};
    if (sigtimedwait(&stopSignals, nullptr, &now) > 0) outcome.interrupted = true;
    // Each process stops itself at the budget's testing end (FuzzSession), so its last progress
    // line is printed; one still busy with a call when fuzzing's share ended is stopped here.
    const bool spent = budget && std::chrono::steady_clock::now() >= budget->shrinkingEnd();
    if (!stopping &&
        (outcome.interrupted || spent || (config.stopOnProblem && anyFoundCase(foundDir)))) {
      stopping = true;
      for (ChildProcess& child : running) child.signal(SIGUSR1);
    }
    std::erase_if(running, [&](ChildProcess& child) {
      if (!child.ended()) return false;
      const ExitStatus status = child.wait();
      const bool clean =
          status.success() || (status.exited && status.code == kFuzzUnreachableExit) ||
          (outcome.interrupted && status.exited && status.code == kLibFuzzerInterruptedExit);
      if (!clean && outcome.failure.empty())
        outcome.failure = status.exited ? fmt::format("exit {}", status.code)
                                        : fmt::format("signal {}", status.signal);
      return true;
    });
    if (!running.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return outcome;
}

}  // namespace convcheck
