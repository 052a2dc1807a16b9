#include "app/fuzz/fuzz_engine.h"

#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <thread>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "app/fuzz/corpus_merge.h"
#include "app/fuzz/found_case.h"
#include "app/fuzz/fuzz_report.h"
#include "app/fuzz/fuzz_session.h"
#include "app/fuzz/libfuzzer_driver.h"
#include "harness/corpus/corpus_store.h"

namespace convcheck {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A directory under /tmp for as long as the value lives.
class FuzzScratchDir {
 public:
  FuzzScratchDir() {
    char path[] = "/tmp/convcheck-fuzz-XXXXXX";
    if (mkdtemp(path)) path_ = path;
  }
  ~FuzzScratchDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  FuzzScratchDir(const FuzzScratchDir&) = delete;
  FuzzScratchDir& operator=(const FuzzScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<std::string> libFuzzerArgs(const FuzzConfig& config, const std::string& inputs,
                                       int job) {
  std::vector<std::string> args = {"convcheck-fuzz", "-max_len=1048576", "-print_final_stats=1",
                                   "-use_value_profile=0"};
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

// Writes the corpus's regressions of the kind and its samples into libFuzzer's input directory,
// as cases, so a fuzz run starts from what earlier runs and the user found.
void seedInputs(const KindContext& kind, const FuzzConfig& config, const std::string& inputs,
                RunReport& report) {
  const FuzzKind fuzzKind = fuzzKindOf(kind, static_cast<std::size_t>(config.run.maxBatchSize));
  const CorpusContents contents = CorpusStore(config.run.corpusDir).load(kind.crd());
  for (const auto& note : contents.notes) report.warnings.push_back("corpus: " + note);
  auto write = [&](const std::string& prefix, const json& doc) {
    const std::string raw = doc.dump();
    const FuzzCase c =
        decodeFuzzCase(fuzzKind, reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size());
    const std::string bytes = encodeFuzzCase(c);
    const std::string path = fmt::format(
        "{}/{}-{:016x}", inputs, prefix,
        fuzzInputHash(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
    if (!fs::exists(path)) std::ofstream(path) << bytes;
  };
  for (const auto& r : contents.regressions)
    write("regression", {{"to", r.regression.caseTo}, {"objects", r.regression.objects}});
  for (const auto& sample : contents.samples)
    for (const auto& to : fuzzKind.targets)
      if (to != sample.version) write("sample", {{"to", to}, {"objects", {sample.object}}});
}

bool hasFoundCases(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".json" &&
        entry.path().filename().string().find("-case-") != std::string::npos)
      return true;
  return false;
}

// libFuzzer's exit code when SIGINT or SIGTERM interrupts it (-interrupted_exitcode).
constexpr int kLibFuzzerInterruptedExit = 72;

struct ChildrenOutcome {
  std::string failure;       // how the first process that ended abnormally ended, or ""
  bool interrupted = false;  // SIGINT or SIGTERM came: every process was told to stop
};

// Runs libFuzzer in `config.jobs` child processes (libFuzzer ends its process when done) and
// waits for them. SIGINT and SIGTERM do not end this process meanwhile: they stop the children
// (SIGUSR1, libFuzzer's graceful exit, for those the signal did not reach), so what they found is
// still reported.
ChildrenOutcome fuzzInChildren(const KindContext& kind, const FuzzConfig& config,
                               const std::string& inputs, const std::string& foundDir) {
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
      FuzzSession session(kind, config, foundDir, job);
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
    if (!stopping && (outcome.interrupted || (config.stopOnProblem && hasFoundCases(foundDir)))) {
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

std::size_t filesIn(const std::string& dir) {
  std::size_t n = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) n += entry.is_regular_file();
  return n;
}

// What fuzzing did, as a note of the kind's report: cases, speed, corpus, features, and how long
// the first problem took.
std::string fuzzSummary(const FuzzConfig& config, const FuzzStats& stats,
                        const std::vector<FoundCase>& found, std::size_t corpusFiles) {
  std::string text = fmt::format(
      "fuzz: {} case(s) in {:.1f} s ({:.1f}/s) over {} process(es); corpus {} input(s); {} "
      "behaviour feature(s)",
      stats.execs, stats.seconds, stats.seconds > 0 ? stats.execs / stats.seconds : 0.0,
      config.jobs, corpusFiles, stats.features);
  if (!found.empty())
    text += fmt::format("; first problem after {:.1f} s (case {} of process {})",
                        found.front().seconds, found.front().exec, found.front().job);
  text +=
      "; the tallies count the cases run again (the first of each problem on each property and "
      "pair), not every fuzz case";
  return text;
}

}  // namespace

RunReport runFuzz(const Crd& crd, const FuzzConfig& config, std::ostream& log) {
  const auto started = std::chrono::steady_clock::now();
  RunReport report;
  report.startedAt = fmt::format(
      "{:%Y-%m-%dT%H:%M:%SZ}",
      fmt::gmtime(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now())));
  report.seed = config.run.seed;
  report.command = config.run.commandLine;
  report.rawObjects = config.run.rawObjects;
  report.canonicalDateTimes = config.run.canonicalDateTimes;
  auto finishWith = [&](int code) {
    report.exitCode = code;
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return report;
  };
  auto compiled = KindContext::compile(
      crd, KindSettings{GeneratorOptions{FormatOptions{config.run.canonicalDateTimes}},
                        config.run.rawObjects, config.run.acks ? &*config.run.acks : nullptr});
  if (auto* error = std::get_if<KindContext::Error>(&compiled)) {
    report.fatalError = fmt::format("{}, document {}: version {}: {}", crd.source.file,
                                    crd.source.document, error->version, error->message);
    return finishWith(2);
  }
  const KindContext& kind = std::get<KindContext>(compiled);
  if (kind.versions().size() < 2) {
    report.fatalError = fmt::format("{}: fuzzing needs two versions with a schema", crd.name);
    return finishWith(2);
  }
  FuzzScratchDir scratch;  // found cases and stats; the inputs when there is no --corpus
  if (scratch.path().empty()) {
    report.fatalError = "cannot create a temporary directory under /tmp";
    return finishWith(2);
  }
  std::string inputs = scratch.path() + "/inputs";
  if (!config.run.corpusDir.empty()) inputs = config.run.corpusDir + "/fuzz";
  const std::string foundDir = scratch.path() + "/found";
  std::error_code ec;
  fs::create_directories(foundDir, ec);
  fs::create_directories(inputs, ec);
  if (ec) {
    report.fatalError = fmt::format("cannot create {}: {}", inputs, ec.message());
    return finishWith(2);
  }
  if (!config.run.corpusDir.empty()) seedInputs(kind, config, inputs, report);

  ChildrenOutcome children;
  if (config.merge) {
    FuzzSession session(kind, config, foundDir, 0);
    const MergeOutcome merged = mergeCorpus(session, inputs);
    session.finished();
    if (!merged.error.empty()) {
      report.fatalError = merged.error;
      return finishWith(2);
    }
    log << fmt::format("fuzz --merge: kept {} of {} input(s) in {} ({} features)\n", merged.kept,
                       merged.inputs, inputs, merged.features);
  } else {
    children = fuzzInChildren(kind, config, inputs, foundDir);
  }
  if (std::ifstream in(foundDir + "/unreachable"); in) {
    std::string why;
    std::getline(in, why);
    report.fatalError = fmt::format("{}: could not reach the webhook: {}", crd.name,
                                    explainUnreachable(config.target, why));
    return finishWith(3);
  }
  const std::string& abnormal = children.failure;
  report.interrupted = children.interrupted;
  if (!abnormal.empty())
    report.warnings.push_back(fmt::format(
        "a fuzzing process ended abnormally ({}); its problems so far are reported", abnormal));
  std::vector<std::string> notes;
  const std::vector<FoundCase> found = readFoundCases(foundDir, notes);
  const FuzzStats stats = readFuzzStats(foundDir);
  KindReport kindReport = reportFoundCases(kind, config, found, log);
  for (auto& note : notes) kindReport.notes.push_back(std::move(note));
  kindReport.notes.push_back(fuzzSummary(config, stats, found, filesIn(inputs)));
  kindReport.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  report.kinds.push_back(std::move(kindReport));
  if (report.interrupted) return finishWith(kFuzzInterruptedExit);
  if (report.failedProperties() > 0) return finishWith(1);
  return finishWith(abnormal.empty() ? 0 : 2);
}

}  // namespace convcheck
