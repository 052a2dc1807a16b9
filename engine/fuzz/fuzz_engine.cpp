#include "engine/fuzz/fuzz_engine.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "engine/fuzz/corpus_merge.h"
#include "engine/fuzz/found_case.h"
#include "engine/fuzz/fuzz_processes.h"
#include "engine/fuzz/fuzz_report.h"
#include "engine/fuzz/fuzz_session.h"
#include "engine/run/run_report_header.h"
#include "engine/run/seed_objects.h"
#include "engine/run/target_kinds.h"
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

// Writes the corpus's regressions of the kind and its samples, and the objects stored in the
// cluster (--cluster-objects), into libFuzzer's input directory, as flights of --in-flight cases
// (the same seeds make the same files), so a fuzz run starts from what earlier runs, the user and
// the cluster hold, all of it in its first inputs.
void seedInputs(const KindContext& kind, const FuzzConfig& config, const std::string& inputs,
                RunReport& report) {
  const FuzzKind fuzzKind = fuzzKindOf(kind, static_cast<std::size_t>(config.run.maxBatchSize));
  const CorpusContents contents = loadSeedObjects(config.run, kind.crd(), kind.versions());
  for (const auto& note : contents.notes)
    report.warnings.push_back(note.rfind("--cluster-objects", 0) == 0 ? note : "corpus: " + note);
  std::vector<FuzzCase> seeds;
  auto add = [&](const json& doc) {
    const std::string raw = doc.dump();
    seeds.push_back(
        decodeFuzzCase(fuzzKind, reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()));
  };
  for (const auto& r : contents.regressions)
    add({{"to", r.regression.caseTo}, {"objects", r.regression.objects}});
  for (const auto& sample : contents.samples)
    for (const auto& to : fuzzKind.targets)
      if (to != sample.version) add({{"to", to}, {"objects", {sample.object}}});
  const auto flight = static_cast<std::size_t>(std::max(config.inFlight, 1));
  for (std::size_t first = 0; first < seeds.size(); first += flight) {
    const std::string bytes = encodeFuzzFlight(
        {seeds.begin() + static_cast<std::ptrdiff_t>(first),
         seeds.begin() + static_cast<std::ptrdiff_t>(std::min(first + flight, seeds.size()))});
    const std::string path = fmt::format(
        "{}/seeds-{:016x}", inputs,
        fuzzInputHash(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
    if (!fs::exists(path)) std::ofstream(path) << bytes;
  }
}

// Why the shards of --merge-from cannot be joined into the corpus, or "".
std::string checkShards(const FuzzConfig& config) {
  if (config.run.corpusDir.empty())
    return "--merge-from needs --corpus DIR, the corpus the shards are joined into";
  for (const auto& shard : config.mergeFrom)
    if (!fs::is_directory(shard)) return fmt::format("--merge-from {}: no such directory", shard);
  return "";
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

RunReport runFuzz(const Crd& crd, const FuzzConfig& config, const TargetFactory& given,
                  const StartProcessWebhook& ownWebhook) {
  const TargetFactory makeTarget = targetFactory(given);
  const auto started = std::chrono::steady_clock::now();
  const std::optional<RunBudget> budget = fuzzBudget(config);
  ReportClock clock(config.run);
  RunReport& report = clock.report();
  auto finishWith = [&clock](int code) { return clock.finish(code); };
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
  if (config.merge && !config.mergeFrom.empty()) {  // other shards' regressions, seeds below
    if (auto error = checkShards(config); !error.empty()) {
      report.fatalError = error;
      return finishWith(2);
    }
    if (auto error = joinRegressions(config.run.corpusDir, config.mergeFrom); !error.empty()) {
      report.fatalError = error;
      return finishWith(2);
    }
  }
  if (!config.run.corpusDir.empty() || config.run.clusterObjects > 0)
    seedInputs(kind, config, inputs, report);

  ChildrenOutcome children;
  if (config.merge) {
    FuzzSession session(kind, config, makeTarget, foundDir, 0);
    std::vector<std::string> shardInputs;
    for (const auto& shard : config.mergeFrom) shardInputs.push_back(shard + "/fuzz");
    const MergeOutcome merged = mergeCorpus(session, inputs, shardInputs);
    session.finished();
    if (!merged.error.empty()) {
      report.fatalError = merged.error;
      return finishWith(2);
    }
    tell(config.run.events,
         Note{Note::Level::Info,
              fmt::format("fuzz --merge: kept {} of {} input(s) in {} ({} features){}", merged.kept,
                          merged.inputs, inputs, merged.features,
                          config.mergeFrom.empty()
                              ? ""
                              : fmt::format(", joined with {} other corpus director(ies)",
                                            config.mergeFrom.size()))});
  } else {
    tell(config.run.events,
         Note{Note::Level::Info,
              fmt::format("fuzz: starting from {} input(s) in {}", filesIn(inputs), inputs)});
    children = fuzzInChildren(kind, config, makeTarget, inputs, foundDir, budget, ownWebhook);
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
  KindReport kindReport = reportFoundCases(kind, config, makeTarget, found, budget);
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
