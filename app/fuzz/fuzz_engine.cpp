#include "app/fuzz/fuzz_engine.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "app/fuzz/behaviour_features.h"
#include "app/fuzz/libfuzzer_driver.h"
#include "harness/corpus/corpus_store.h"
#include "harness/fuzz/case_mutator.h"
#include "harness/fuzz/fuzz_case.h"
#include "harness/transport/converter.h"
#include "kube/apiserver/group_version.h"
#include "reports/bundle_writer.h"
#include "reports/failure_text.h"
#include "shrink/case_shrinker.h"
#include "shrink/failure_target.h"

namespace convcheck {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::uint64_t hashOf(const std::uint8_t* data, std::size_t size) {
  std::uint64_t h = 1469598103934665603ULL;
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ULL;
  return h;
}

FuzzKind fuzzKindOf(const KindContext& kind, std::size_t maxBatch) {
  return FuzzKind{&kind.generators(), &kind.checkers(), kind.versions(), kind.vias(), maxBatch};
}

// A failure as the fuzzing process hands it to the reporting one: the first case that showed a
// (property, part, pair, cause), with the seed it ran with.
struct FoundProblem {
  FailureTarget target;
  std::string caseBytes;  // the canonical encoding of the case
  std::uint64_t seed = 0;
  double seconds = 0;     // since fuzzing started
  std::int64_t exec = 0;  // the case's number
};

json toJson(const FoundProblem& p) {
  return {{"property", p.target.property},
          {"part", casePartName(p.target.part)},
          {"from", p.target.from},
          {"to", p.target.to},
          {"signature", p.target.signature},
          {"cause", p.target.cause},
          {"case", json::parse(p.caseBytes)},
          {"seed", p.seed},
          {"seconds", p.seconds},
          {"exec", p.exec}};
}

FoundProblem fromJson(const json& j) {
  FoundProblem p;
  p.target.property = j.at("property");
  p.target.part = casePartFromName(j.at("part")).value_or(CasePart::Forward);
  p.target.from = j.at("from");
  p.target.to = j.at("to");
  p.target.signature = j.at("signature");
  p.target.cause = j.at("cause");
  p.caseBytes = j.at("case").dump();
  p.seed = j.at("seed");
  p.seconds = j.at("seconds");
  p.exec = j.at("exec");
  return p;
}

// The fuzzing process: runs each input libFuzzer hands over as a case, reports its behaviour as
// extra counters, records each new problem in `problemsDir`.
class FuzzSession : public FuzzHooks {
 public:
  FuzzSession(const KindContext& kind, const FuzzConfig& config, std::string problemsDir)
      : kind_(kind),
        fuzzKind_(fuzzKindOf(kind, config.maxBatch)),
        mutator_(fuzzKind_),
        converter_(kind.crd(), httpsTarget(config.target), config.target.reviewVersion),
        executor_(
            kind.crd(), converter_, config.target.transport.timeout,
            [](const std::string&) { return true; },
            [this](const Exchange& e) { features_.addExchange(e); }),
        problemsDir_(std::move(problemsDir)),
        start_(std::chrono::steady_clock::now()) {
    kind.configure(executor_);
  }

  int testOne(const std::uint8_t* data, std::size_t size) override {
    const FuzzCase c = decodeFuzzCase(fuzzKind_, data, size);
    const std::uint64_t seed = hashOf(data, size);
    features_.clear();
    ++execs_;
    CaseResult result = executor_.run(c.objects, c.versions.front(), c.to, seed);
    if (execs_ == 1 && result.forwardCall) {
      const HttpResult& http = result.forwardCall->http;
      if (!http.ok() && (http.transportErrorKind == TransportErrorKind::Connect ||
                         http.transportErrorKind == TransportErrorKind::Tls)) {
        std::ofstream(problemsDir_ + "/unreachable") << http.transportError << "\n";
        std::_Exit(3);
      }
    }
    for (std::size_t i = 0; i < c.objects.size(); ++i)
      features_.addInput(c.versions[i], c.objects[i]);
    features_.addResult(result, c.versions.front(), c.to);
    features_.writeTo(extraCounters());
    for (auto& target : failuresOf(result, c.versions.front(), c.to)) record(target, c, seed);
    return 0;
  }

  std::size_t mutate(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                     unsigned seed) override {
    const FuzzCase c = decodeFuzzCase(fuzzKind_, data, size);
    for (unsigned attempt = 0; attempt < 4; ++attempt) {
      Mutation m = mutator_.mutate(c, seed * 4ULL + attempt);
      const std::string bytes = encodeFuzzCase(m.result);
      if (bytes.size() <= maxSize) return put(bytes, data);
    }
    return put(encodeFuzzCase(c), data, maxSize);
  }

  std::size_t crossOver(const std::uint8_t* a, std::size_t sizeA, const std::uint8_t* b,
                        std::size_t sizeB, std::uint8_t* out, std::size_t maxOut,
                        unsigned seed) override {
    const FuzzCase c = mutator_.crossOver(decodeFuzzCase(fuzzKind_, a, sizeA),
                                          decodeFuzzCase(fuzzKind_, b, sizeB), seed);
    return put(encodeFuzzCase(c), out, maxOut);
  }

 private:
  static std::size_t put(const std::string& bytes, std::uint8_t* out,
                         std::size_t maxSize = SIZE_MAX) {
    const std::size_t n = std::min(bytes.size(), maxSize);
    std::memcpy(out, bytes.data(), n);
    return n;
  }

  void record(const FailureTarget& target, const FuzzCase& c, std::uint64_t seed) {
    const std::string key =
        fmt::format("{}|{}|{}|{}|{}", target.property, casePartName(target.part), target.from,
                    target.to, target.cause);
    if (!seen_.insert(key).second) return;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    FoundProblem p{target, encodeFuzzCase(c), seed, seconds, execs_};
    const std::string path = fmt::format("{}/problem-{:04}.json", problemsDir_, seen_.size());
    std::ofstream(path + ".tmp") << toJson(p).dump() << "\n";
    fs::rename(path + ".tmp", path);
    fmt::print(stderr, "convcheck fuzz: problem after {:.1f} s (case {}): {} {} -> {}{}\n", seconds,
               execs_, target.property, target.from, target.to,
               target.cause.empty() ? "" : " (" + target.cause + ")");
  }

  const KindContext& kind_;
  FuzzKind fuzzKind_;
  CaseMutator mutator_;
  Converter converter_;
  BehaviourFeatures features_;
  CaseExecutor executor_;
  std::string problemsDir_;
  std::set<std::string> seen_;
  std::int64_t execs_ = 0;
  std::chrono::steady_clock::time_point start_;
};

std::vector<std::string> libFuzzerArgs(const FuzzConfig& config, const std::string& inputs) {
  std::vector<std::string> args = {"convcheck-fuzz", "-max_len=1048576", "-reload=0",
                                   "-print_final_stats=1", "-use_value_profile=0"};
  if (config.maxTotalTime > 0)
    args.push_back(fmt::format("-max_total_time={}", config.maxTotalTime));
  if (config.runs >= 0) args.push_back(fmt::format("-runs={}", config.runs));
  if (config.seed != 0) args.push_back(fmt::format("-seed={}", config.seed % 4294967295ULL));
  if (!inputs.empty()) args.push_back(inputs);
  return args;
}

// Re-runs, shrinks and reports each recorded problem; returns how many were reported.
int reportProblems(const KindContext& kind, const FuzzConfig& config,
                   const std::vector<FoundProblem>& problems, std::ostream& out,
                   std::ostream& err) {
  const Crd& crd = kind.crd();
  const FuzzKind fuzzKind = fuzzKindOf(kind, config.maxBatch);
  Converter converter(crd, httpsTarget(config.target), config.target.reviewVersion);
  const ShrinkSchemas schemas = kind.schemas();
  int reported = 0;
  std::map<std::string, int> bundleCount;
  for (const auto& p : problems) {
    const FuzzCase c = decodeFuzzCase(
        fuzzKind, reinterpret_cast<const std::uint8_t*>(p.caseBytes.data()), p.caseBytes.size());
    auto runnerFor = [&](std::optional<FailureTarget> target) -> CaseRunner {
      return [&, target](const std::vector<json>& b, const std::string& from) {
        CaseExecutor executor(
            crd, converter, config.target.transport.timeout,
            [target](const std::string& id) { return !target || caseNeeds(*target, id); }, nullptr);
        kind.configure(executor);
        return executor.run(b, from, c.to, p.seed);
      };
    };
    CaseResult first = runnerFor(p.target)(c.objects, c.versions.front());
    const CheckResult* original = locateFailure(first, p.target);
    ++reported;
    out << fmt::format("problem: {} {} -> {}{} (found after {:.1f} s, case {})\n",
                       p.target.property, p.target.from, p.target.to,
                       p.target.cause.empty() ? "" : ": " + p.target.cause, p.seconds, p.exec);
    if (!original || !original->finding) {
      out << "  did not fail again when re-run (flaky): not shrunk\n";
      continue;
    }
    ShrinkCase shrinkCase;
    shrinkCase.to = c.to;
    shrinkCase.seed = p.seed;
    for (std::size_t i = 0; i < c.objects.size(); ++i)
      shrinkCase.items.push_back({c.versions[i], rc::shrinkable::just(c.objects[i]), i});
    ShrinkOutcome outcome = shrinkFailure(shrinkCase, p.target, *original, schemas,
                                          runnerFor(p.target), config.shrinkBudget);
    Finding finding = *outcome.result.finding;
    finding.caseObjects = outcome.batch;
    finding.seed = p.seed;
    finding.caseTo = c.to;
    finding.part = casePartName(p.target.part);
    finding.origin = fmt::format("fuzz case {}", p.exec);
    finding.shrink = outcome.info;
    out << "  " << finding.summary << "\n";
    if (!finding.apiserverMessage.empty())
      out << "  kube-apiserver rejects this: " << finding.apiserverMessage << "\n";
    out << "  " << shrinkSummary(outcome.info) << "\n";
    if (!config.reportDir.empty()) {
      std::string name = bundleName(crd.kind, p.target.from, p.target.to, p.target.property);
      if (const int n = ++bundleCount[name]; n > 1) name += fmt::format("-{}", n);
      const std::string dir = config.reportDir + "/bundles/" + name;
      BundleTarget target{config.target.url, reviewVersionName(config.target.reviewVersion),
                          config.target.transport};
      BundleContext context{config.convcheckVersion, config.seed, config.commandLine,
                            config.settings.rawObjects,
                            config.settings.generation.formats.canonicalDateTimes};
      if (auto e = writeBundle(dir, finding, crd, target, context); !e.empty())
        err << "convcheck: " << e << "\n";
      else
        out << fmt::format("  bundle: {}\n  replay: convcheck replay {}\n", finding.bundle,
                           finding.bundle);
    }
    if (!config.corpusDir.empty()) {
      RegressionCase r{
          crd.name, crd.kind, p.target.property, p.target.from,  p.target.to, finding.part,
          c.to,     p.seed,   outcome.batch,     finding.summary};
      const std::string saved = CorpusStore(config.corpusDir).save(r);
      if (saved.rfind("error: ", 0) == 0) err << "convcheck: corpus: " << saved.substr(7) << "\n";
    }
  }
  return reported;
}

// Writes the corpus's regressions of `crd` and its samples into libFuzzer's input directory, as
// cases, so a fuzz run starts from what earlier runs and the user found.
void seedInputs(const KindContext& kind, const FuzzConfig& config, const std::string& inputs,
                std::ostream& err) {
  const FuzzKind fuzzKind = fuzzKindOf(kind, config.maxBatch);
  const CorpusContents contents = CorpusStore(config.corpusDir).load(kind.crd());
  for (const auto& note : contents.notes) err << "convcheck: corpus: " << note << "\n";
  auto write = [&](const std::string& prefix, const json& doc) {
    const std::string raw = doc.dump();
    const FuzzCase c =
        decodeFuzzCase(fuzzKind, reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size());
    const std::string bytes = encodeFuzzCase(c);
    const std::string path =
        fmt::format("{}/{}-{:016x}", inputs, prefix,
                    hashOf(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
    if (!fs::exists(path)) std::ofstream(path) << bytes;
  };
  for (const auto& r : contents.regressions)
    write("regression", {{"to", r.regression.caseTo}, {"objects", r.regression.objects}});
  for (const auto& sample : contents.samples)
    for (const auto& to : fuzzKind.targets)
      if (to != sample.version) write("sample", {{"to", to}, {"objects", {sample.object}}});
}

}  // namespace

int runFuzz(const Crd& crd, const FuzzConfig& config, std::ostream& out, std::ostream& err) {
  auto compiled = KindContext::compile(crd, config.settings);
  if (auto* error = std::get_if<KindContext::Error>(&compiled)) {
    err << fmt::format("convcheck: {} version {}: {}\n", crd.name, error->version, error->message);
    return 2;
  }
  const KindContext& kind = std::get<KindContext>(compiled);
  if (kind.versions().size() < 2) {
    err << fmt::format("convcheck: {}: fuzzing needs two versions with a schema\n", crd.name);
    return 2;
  }
  std::error_code ec;
  std::string inputs;
  if (!config.corpusDir.empty()) {
    inputs = config.corpusDir + "/fuzz";
    fs::create_directories(inputs, ec);
    if (ec) {
      err << fmt::format("convcheck: cannot create {}: {}\n", inputs, ec.message());
      return 2;
    }
  }
  if (!inputs.empty()) seedInputs(kind, config, inputs, err);
  char problemsTemplate[] = "/tmp/convcheck-fuzz-XXXXXX";
  if (!mkdtemp(problemsTemplate)) {
    err << "convcheck: cannot create a temporary directory\n";
    return 2;
  }
  const std::string problemsDir = problemsTemplate;
  out.flush();
  err.flush();
  // libFuzzer ends its process when done: fuzzing runs in a child, this process reports after.
  const pid_t child = fork();
  if (child < 0) {
    err << "convcheck: fork failed: " << std::strerror(errno) << "\n";
    return 2;
  }
  if (child == 0) {
    FuzzSession session(kind, config, problemsDir);
    runLibFuzzer(libFuzzerArgs(config, inputs), session);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  int code = 0;
  if (fs::exists(problemsDir + "/unreachable")) {
    std::ifstream in(problemsDir + "/unreachable");
    std::string why;
    std::getline(in, why);
    err << "convcheck: could not reach the webhook: " << why << "\n";
    code = 3;
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    err << fmt::format("convcheck: the fuzzing process ended abnormally ({})\n",
                       WIFSIGNALED(status) ? fmt::format("signal {}", WTERMSIG(status))
                                           : fmt::format("exit {}", WEXITSTATUS(status)));
    code = 2;
  }
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(problemsDir, ec))
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  std::vector<FoundProblem> problems;
  for (const auto& f : files) {
    std::ifstream in(f);
    problems.push_back(fromJson(json::parse(in)));
  }
  fs::remove_all(problemsDir, ec);
  if (code == 3) return code;
  const int reported = reportProblems(kind, config, problems, out, err);
  out << fmt::format("fuzz: {} problem(s) found\n", reported);
  if (reported > 0) return 1;
  return code;
}

}  // namespace convcheck
