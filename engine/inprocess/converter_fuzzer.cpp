#include "engine/inprocess/converter_fuzzer.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "engine/fuzz/fuzz_input.h"
#include "engine/run/case_judge.h"
#include "engine/run/kind_context.h"
#include "engine/run/target_kinds.h"
#include "harness/corpus/corpus_store.h"
#include "kube/crd/crd_loader.h"
#include "reports/bundle_writer.h"
#include "reports/failure_text.h"

namespace convcheck::inprocess {

using nlohmann::json;
namespace fs = std::filesystem;

struct JudgedCase {
  CaseResult result;
  std::vector<FailureTarget> failures;
};

namespace {

Crd loadOneCrd(const FuzzerOptions& options) {
  if (options.crdFile.empty())
    throw std::runtime_error("no CRD file given (FuzzerOptions::crdFile, or set CONVCHECK_CRD)");
  std::istringstream none;
  LoadResult loaded = loadCrdInput(options.crdFile, none);
  if (!loaded.ok()) {
    std::string why;
    for (const auto& e : loaded.errors) why += "\n  " + e.text();
    throw std::runtime_error(fmt::format("{}: cannot load the CRD:{}", options.crdFile, why));
  }
  for (auto& crd : loaded.crds)
    if (options.crdName.empty() || crd.name == options.crdName) return std::move(crd);
  throw std::runtime_error(
      fmt::format("{}: no CRD named {} in it", options.crdFile, options.crdName));
}

// The CRD's versions compiled as `convcheck run` compiles them (the engine's KindContext).
KindContext compileKind(const FuzzerOptions& options, const Crd& crd) {
  auto compiled = KindContext::compile(crd);
  if (auto* error = std::get_if<KindContext::Error>(&compiled))
    throw std::runtime_error(fmt::format("{}: {} version {}: {}", options.crdFile, crd.name,
                                         error->version, error->message));
  KindContext kind = std::get<KindContext>(std::move(compiled));
  if (kind.versions().size() < 2)
    throw std::runtime_error(
        fmt::format("{}: {}: fuzzing a conversion needs two versions with a schema",
                    options.crdFile, crd.name));
  return kind;
}

// The function as the engine's in-process target kind: reviews posted to it are converted here.
ResolvedTarget inProcessTarget(const FuzzerOptions& options, const Crd& crd,
                               ReviewFunction convert) {
  ResolvedTarget target;
  target.url = "inprocess://" + crd.name;
  target.transport.timeout = options.timeout;
  target.reviewVersion = options.reviewVersion;
  target.function = std::move(convert);
  return target;
}

}  // namespace

struct ConverterFuzzer::State {
  State(FuzzerOptions o, ReviewFunction convert)
      : options(std::move(o)),
        kind(compileKind(options, loadOneCrd(options))),
        fuzzKind(fuzzKindOf(kind, options.maxBatch)),
        mutator(fuzzKind),
        target(inProcessTarget(options, kind.crd(), std::move(convert))),
        judge(kind, target, openTarget) {}

  FuzzerOptions options;
  KindContext kind;
  FuzzKind fuzzKind;
  CaseMutator mutator;
  ResolvedTarget target;
  CaseJudge judge;
};

ConverterFuzzer::ConverterFuzzer(FuzzerOptions options, ReviewFunction convert)
    : state_(std::make_unique<State>(std::move(options), std::move(convert))) {}

ConverterFuzzer::ConverterFuzzer(FuzzerOptions options, ObjectFunction convert)
    : ConverterFuzzer(std::move(options), reviewFunctionOf(std::move(convert))) {}

ConverterFuzzer::~ConverterFuzzer() = default;

const Crd& ConverterFuzzer::crd() const { return state_->kind.crd(); }
const FuzzKind& ConverterFuzzer::kind() const { return state_->fuzzKind; }

Verdict ConverterFuzzer::judge(const std::uint8_t* data, std::size_t size) {
  Verdict v;
  v.fuzzCase = decodeFuzzCase(state_->fuzzKind, data, size);
  v.seed = fuzzInputHash(data, size);
  const std::string& from = v.fuzzCase.versions.front();
  auto judged = std::make_shared<JudgedCase>();
  judged->result = state_->judge.run(v.fuzzCase.objects, from, v.fuzzCase.to, v.seed);
  judged->failures = failuresOf(judged->result, from, v.fuzzCase.to);
  for (const auto& f : judged->failures)
    v.failures.push_back({f.property, casePartName(f.part), f.from, f.to, f.cause});
  v.judged = std::move(judged);
  return v;
}

namespace {

// The files of a failure, each a way to run it again; what could not be written is said in
// `notes`.
struct FailureFiles {
  std::string bundle, regression, shrunkCase, corpus, notes;
};

FailureFiles writeFailureFiles(const FuzzerOptions& options, const KindContext& kind,
                               const FuzzKind& fuzzKind, const FailureTarget& target,
                               Finding& finding) {
  FailureFiles out;
  const Crd& crd = kind.crd();
  const std::string& dir = options.reportDir;
  const std::string name = bundleName(crd.kind, target.from, target.to, target.property);
  const BundleTarget bundleTarget{"inprocess://" + crd.name,
                                  reviewVersionName(options.reviewVersion), TransportOptions{}};
  const BundleContext context{CONVCHECK_INPROCESS_VERSION,
                              0,
                              options.command,
                              false,
                              true,
                              "",
                              WebhookReach{WebhookReach::How::InProcess}};
  if (const WrittenBundle written =
          writeBundle(dir + "/bundles/" + name, finding, crd, bundleTarget, context);
      written.error.empty())
    out.bundle = written.bundle.dir;
  else
    out.notes += "could not write the bundle: " + written.error + "\n";

  const RegressionCase regression{crd.name,       crd.kind,     target.property,
                                  target.from,    target.to,    finding.part,
                                  finding.caseTo, finding.seed, finding.caseObjects.copy(),
                                  finding.summary};
  out.corpus = dir + "/corpus";
  if (const std::string saved = CorpusStore(out.corpus).save(regression);
      saved.rfind("error: ", 0) != 0)
    out.regression = out.corpus + "/" + saved;
  else
    out.notes += "could not store the regression case: " + saved.substr(7) + "\n";

  FuzzCase shrunk{finding.caseTo, finding.caseObjects.copy(), {}};
  for (const auto& object : shrunk.objects) shrunk.versions.push_back(fuzzKind.versionOf(object));
  const std::string shrunkPath = dir + "/cases/" + name + ".json";
  std::error_code ec;
  fs::create_directories(dir + "/cases", ec);
  if (std::ofstream file(shrunkPath); file << encodeFuzzCase(shrunk) && file.flush())
    out.shrunkCase = shrunkPath;
  else
    out.notes += "could not write " + shrunkPath + "\n";
  return out;
}

// How to run each file again.
std::string rerunLines(const FuzzerOptions& options, const FailureFiles& files) {
  const std::string command = options.command.empty() ? "FUZZ_TARGET" : options.command;
  std::string text =
      fmt::format("run this input again: {} crash-<sha1> (libFuzzer names it below)\n", command);
  if (!files.shrunkCase.empty())
    text += fmt::format("run the shrunk case: {} {}\n", command, shownPath(files.shrunkCase));
  if (!files.bundle.empty())
    text += fmt::format(
        "send it to a running webhook: convcheck replay {} --url https://HOST:PORT/convert "
        "--ca-file CA\n",
        shownPath(files.bundle));
  if (!files.regression.empty())
    text += fmt::format(
        "try it first on every run: convcheck run -f {} --corpus {} ... (stored as {})\n",
        options.crdFile, shownPath(files.corpus), shownPath(files.regression));
  return text;
}

}  // namespace

FailureReport ConverterFuzzer::report(const Verdict& verdict) {
  FailureReport out;
  if (!verdict.failed() || !verdict.judged) return out;
  const State& s = *state_;
  const FailureTarget& target = verdict.judged->failures.front();
  const CheckResult* original = locateFailure(verdict.judged->result, target);
  std::string cause;
  if (original && original->finding)
    for (const auto& candidate : original->finding->causes)
      if (candidate.key == target.cause) cause = candidate.title;
  out.text = fmt::format("convcheck: {} {} -> {} failed{}\n", target.property, target.from,
                         target.to, cause.empty() ? "" : ": " + cause);
  if (!original || !original->finding) return out;
  const FuzzCase& c = verdict.fuzzCase;
  ShrinkOutcome shrunk = state_->judge.shrink(c.objects, c.to, verdict.seed, target, *original,
                                              s.options.shrinkBudget);
  Finding finding = *shrunk.result.finding;
  finding.caseObjects = SharedObjects::own(std::move(shrunk.batch));
  finding.seed = verdict.seed;
  finding.caseTo = c.to;
  finding.part = casePartName(target.part);
  finding.origin = "in-process fuzz input";
  finding.shrink = shrunk.info;

  const FailureFiles files = writeFailureFiles(s.options, s.kind, s.fuzzKind, target, finding);
  out.bundle = files.bundle;
  out.regression = files.regression;
  out.shrunkCase = files.shrunkCase;
  // The bundle's curl and replay lines would name the in-process URL: the lines below say how to
  // run each file instead.
  out.text += failureText(finding, RunReport{}) + files.notes + rerunLines(s.options, files);
  return out;
}

int ConverterFuzzer::testOneInput(const std::uint8_t* data, std::size_t size) {
  const Verdict verdict = judge(data, size);
  if (!verdict.failed()) return 0;
  const FailureReport r = report(verdict);
  std::fputs(r.text.c_str(), stderr);
  std::fflush(stderr);
  std::abort();  // libFuzzer saves the input as a crash and prints how to run it again
}

std::size_t ConverterFuzzer::mutate(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                                    unsigned seed) {
  return mutateInput(state_->mutator, state_->fuzzKind, data, size, maxSize, seed);
}

std::size_t ConverterFuzzer::crossOver(const std::uint8_t* a, std::size_t sizeA,
                                       const std::uint8_t* b, std::size_t sizeB, std::uint8_t* out,
                                       std::size_t maxOut, unsigned seed) {
  return crossOverInputs(state_->mutator, state_->fuzzKind, a, sizeA, b, sizeB, out, maxOut, seed);
}

namespace {

std::size_t positiveFromEnvironment(const char* name, std::size_t fallback) {
  const char* value = std::getenv(name);
  if (!value || !*value) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(value, &end, 10);
  if (*end != '\0' || n == 0 || n > 100000)
    throw std::runtime_error(
        fmt::format("{}={}: must be a whole number from 1 to 100000", name, value));
  return static_cast<std::size_t>(n);
}

}  // namespace

FuzzerOptions optionsFromEnvironment(FuzzerOptions defaults) {
  FuzzerOptions o = std::move(defaults);
  auto text = [](const char* name, std::string& field) {
    if (const char* value = std::getenv(name); value && *value) field = value;
  };
  text("CONVCHECK_CRD", o.crdFile);
  text("CONVCHECK_CRD_NAME", o.crdName);
  text("CONVCHECK_REPORT_DIR", o.reportDir);
  o.maxBatch = positiveFromEnvironment("CONVCHECK_MAX_BATCH", o.maxBatch);
  o.shrinkBudget =
      static_cast<int>(positiveFromEnvironment("CONVCHECK_SHRINK_BUDGET", o.shrinkBudget));
  std::string review = reviewVersionName(o.reviewVersion);
  text("CONVCHECK_REVIEW_VERSION", review);
  if (review != "v1" && review != "v1beta1")
    throw std::runtime_error("CONVCHECK_REVIEW_VERSION=" + review + ": must be v1 or v1beta1");
  o.reviewVersion = review == "v1" ? ReviewVersion::V1 : ReviewVersion::V1beta1;
  return o;
}

}  // namespace convcheck::inprocess
