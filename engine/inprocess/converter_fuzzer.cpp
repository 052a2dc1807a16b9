#include "engine/inprocess/converter_fuzzer.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "generators/object_gen.h"
#include "generators/validity.h"
#include "harness/corpus/corpus_store.h"
#include "harness/fuzz/case_mutator.h"
#include "harness/transport/converter.h"
#include "kube/crd/crd_loader.h"
#include "kube/crd/version_roles.h"
#include "reports/bundle_writer.h"
#include "reports/failure_text.h"
#include "shrink/case_shrinker.h"

namespace convcheck::inprocess {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// FNV-1a of the input: the case seed (request uids, edits), so an input always runs the same way.
std::uint64_t inprocessInputHash(const std::uint8_t* data, std::size_t size) {
  std::uint64_t h = 1469598103934665603ULL;
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ULL;
  return h;
}

std::size_t putBytes(const std::string& bytes, std::uint8_t* out, std::size_t maxSize) {
  const std::size_t n = std::min(bytes.size(), maxSize);
  std::memcpy(out, bytes.data(), n);
  return n;
}

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

}  // namespace

struct ConverterFuzzer::State {
  FuzzerOptions options;
  Crd crd;
  std::map<std::string, ObjectGenerator> generators;
  std::map<std::string, ValidityChecker> checkers;
  std::vector<std::string> vias;  // versions objects may be in (not warning-only)
  FuzzKind kind;
  std::unique_ptr<CaseMutator> mutator;
  std::unique_ptr<Converter> converter;

  // Every version with a schema compiled as `convcheck run` compiles it.
  void compileVersions() {
    const auto warnings = warningOnlyVersions(crd);
    std::vector<std::string> versions;
    for (const auto& v : crd.versions) {
      if (v.schema.is_null()) continue;
      auto gen = ObjectGenerator::compile(crd, v.name);
      if (auto* error = std::get_if<std::string>(&gen))
        throw std::runtime_error(
            fmt::format("{}: {} version {}: {}", options.crdFile, crd.name, v.name, *error));
      auto& compiled = std::get<ObjectGenerator>(gen);
      auto checker = ValidityChecker::compile(crd, v.name, compiled.schema());
      if (auto* error = std::get_if<std::string>(&checker))
        throw std::runtime_error(
            fmt::format("{}: {} version {}: {}", options.crdFile, crd.name, v.name, *error));
      generators.emplace(v.name, std::move(compiled));
      checkers.emplace(v.name, std::move(std::get<ValidityChecker>(checker)));
      versions.push_back(v.name);
      if (!warnings.count(v.name)) vias.push_back(v.name);
    }
    if (versions.size() < 2)
      throw std::runtime_error(
          fmt::format("{}: {}: fuzzing a conversion needs two versions with a schema",
                      options.crdFile, crd.name));
    kind = FuzzKind{&generators, &checkers, versions, vias, options.maxBatch};
  }

  // The executor's settings, as the runner gives them (no acknowledgements, objects defaulted).
  CaseSettings caseSettings() const {
    CaseSettings settings;
    settings.timeout = options.timeout;
    settings.versions = vias;
    settings.validate = [this](const json& object, const std::string& version) {
      std::vector<std::string> out;
      auto it = checkers.find(version);
      if (it == checkers.end()) return out;
      for (const auto& v : it->second.check(object))
        out.push_back((v.path.empty() ? std::string("(root)") : v.path) + ": " + v.message);
      return out;
    };
    settings.edit = [this](const json& object, const std::string& version,
                           std::uint64_t seed) -> std::optional<json> {
      auto it = generators.find(version);
      if (it == generators.end()) return std::nullopt;
      return editedCopyOf(it->second, object, seed);
    };
    return settings;
  }

  ShrinkSchemas schemas() const {
    ShrinkSchemas s;
    for (const auto& [version, checker] : checkers) s.checkers[version] = &checker;
    for (const auto& [version, gen] : generators) s.roots[version] = gen.schema().root;
    return s;
  }
};

ConverterFuzzer::ConverterFuzzer(FuzzerOptions options, ReviewFunction convert)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.options = std::move(options);
  s.crd = loadOneCrd(s.options);
  s.compileVersions();
  s.mutator = std::make_unique<CaseMutator>(s.kind);
  s.converter = std::make_unique<Converter>(
      s.crd, functionTarget(std::move(convert), "inprocess://" + s.crd.name),
      s.options.reviewVersion);
}

ConverterFuzzer::ConverterFuzzer(FuzzerOptions options, ObjectFunction convert)
    : ConverterFuzzer(std::move(options), reviewFunctionOf(std::move(convert))) {}

ConverterFuzzer::~ConverterFuzzer() = default;

const Crd& ConverterFuzzer::crd() const { return state_->crd; }
const FuzzKind& ConverterFuzzer::kind() const { return state_->kind; }

CaseResult ConverterFuzzer::runCase(const std::vector<json>& batch, const std::string& from,
                                    const std::string& to, std::uint64_t seed,
                                    const std::function<bool(const std::string&)>& wants) {
  CaseSettings settings = state_->caseSettings();
  settings.wants = wants;
  CaseExecutor executor(state_->crd, *state_->converter, std::move(settings));
  return executor.run(batch, from, to, seed);
}

Verdict ConverterFuzzer::judge(const std::uint8_t* data, std::size_t size) {
  Verdict v;
  v.fuzzCase = decodeFuzzCase(state_->kind, data, size);
  v.seed = inprocessInputHash(data, size);
  const std::string& from = v.fuzzCase.versions.front();
  v.result = runCase(v.fuzzCase.objects, from, v.fuzzCase.to, v.seed,
                     [](const std::string&) { return true; });
  v.failures = failuresOf(v.result, from, v.fuzzCase.to);
  return v;
}

Finding ConverterFuzzer::shrunkFinding(const Verdict& verdict, const CheckResult& original) {
  const FuzzCase& c = verdict.fuzzCase;
  const FailureTarget& target = verdict.failures.front();
  const CaseRunner runner = [&](const std::vector<json>& batch, const std::string& from) {
    return runCase(batch, from, c.to, verdict.seed,
                   [&target](const std::string& id) { return caseNeeds(target, id); });
  };
  ShrinkCase shrinkCase;
  shrinkCase.to = c.to;
  shrinkCase.seed = verdict.seed;
  for (std::size_t i = 0; i < c.objects.size(); ++i)
    shrinkCase.items.push_back({c.versions[i], rc::shrinkable::just(c.objects[i]), i});
  ShrinkOutcome outcome = shrinkFailure(shrinkCase, target, original, state_->schemas(), runner,
                                        state_->options.shrinkBudget);
  Finding finding = *outcome.result.finding;
  finding.caseObjects = std::move(outcome.batch);
  finding.seed = verdict.seed;
  finding.caseTo = c.to;
  finding.part = casePartName(target.part);
  finding.origin = "in-process fuzz input";
  finding.shrink = outcome.info;
  return finding;
}

FailureReport ConverterFuzzer::report(const Verdict& verdict) {
  FailureReport out;
  if (!verdict.failed()) return out;
  const State& s = *state_;
  const FailureTarget& target = verdict.failures.front();
  const CheckResult* original = locateFailure(verdict.result, target);
  std::string cause;
  if (original && original->finding)
    for (const auto& candidate : original->finding->causes)
      if (candidate.key == target.cause) cause = candidate.title;
  out.text = fmt::format("convcheck: {} {} -> {} failed{}\n", target.property, target.from,
                         target.to, cause.empty() ? "" : ": " + cause);
  if (!original || !original->finding) return out;
  Finding finding = shrunkFinding(verdict, *original);

  // The files, each a way to run the failure again; a file that cannot be written is said.
  const std::string& dir = s.options.reportDir;
  const std::string name = bundleName(s.crd.kind, target.from, target.to, target.property);
  std::string notes;
  const BundleTarget bundleTarget{"inprocess://" + s.crd.name,
                                  reviewVersionName(s.options.reviewVersion), TransportOptions{}};
  const BundleContext context{CONVCHECK_INPROCESS_VERSION, 0, s.options.command, false, true};
  if (auto e = writeBundle(dir + "/bundles/" + name, finding, s.crd, bundleTarget, context);
      e.empty())
    out.bundle = finding.bundle;
  else
    notes += "could not write the bundle: " + e + "\n";

  const RegressionCase regression{
      s.crd.name,   s.crd.kind,     target.property, target.from,         target.to,
      finding.part, finding.caseTo, finding.seed,    finding.caseObjects, finding.summary};
  const std::string corpus = dir + "/corpus";
  if (const std::string saved = CorpusStore(corpus).save(regression);
      saved.rfind("error: ", 0) != 0)
    out.regression = corpus + "/" + saved;
  else
    notes += "could not store the regression case: " + saved.substr(7) + "\n";

  FuzzCase shrunk{finding.caseTo, finding.caseObjects, {}};
  for (const auto& object : shrunk.objects) shrunk.versions.push_back(s.kind.versionOf(object));
  const std::string shrunkPath = dir + "/cases/" + name + ".json";
  std::error_code ec;
  fs::create_directories(dir + "/cases", ec);
  if (std::ofstream file(shrunkPath); file << encodeFuzzCase(shrunk) && file.flush())
    out.shrunkCase = shrunkPath;
  else
    notes += "could not write " + shrunkPath + "\n";

  // The bundle's curl and replay lines would name the in-process URL: the lines below say how to
  // run each file instead.
  Finding shown = finding;
  shown.bundle.clear();
  shown.curl.clear();
  out.text += failureText(shown, RunReport{}) + notes;
  const std::string command = s.options.command.empty() ? "FUZZ_TARGET" : s.options.command;
  out.text +=
      fmt::format("run this input again: {} crash-<sha1> (libFuzzer names it below)\n", command);
  if (!out.shrunkCase.empty())
    out.text += fmt::format("run the shrunk case: {} {}\n", command, shownPath(out.shrunkCase));
  if (!out.bundle.empty())
    out.text += fmt::format(
        "send it to a running webhook: convcheck replay {} --url https://HOST:PORT/convert "
        "--ca-file CA\n",
        shownPath(out.bundle));
  if (!out.regression.empty())
    out.text += fmt::format(
        "try it first on every run: convcheck run -f {} --corpus {} ... (stored as {})\n",
        s.options.crdFile, shownPath(corpus), shownPath(out.regression));
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
  const FuzzCase c = decodeFuzzCase(state_->kind, data, size);
  for (unsigned attempt = 0; attempt < 4; ++attempt) {
    const std::string bytes =
        encodeFuzzCase(state_->mutator->mutate(c, seed * 4ULL + attempt).result);
    if (bytes.size() <= maxSize) return putBytes(bytes, data, maxSize);
  }
  return putBytes(encodeFuzzCase(c), data, maxSize);
}

std::size_t ConverterFuzzer::crossOver(const std::uint8_t* a, std::size_t sizeA,
                                       const std::uint8_t* b, std::size_t sizeB, std::uint8_t* out,
                                       std::size_t maxOut, unsigned seed) {
  const FuzzCase c = state_->mutator->crossOver(decodeFuzzCase(state_->kind, a, sizeA),
                                                decodeFuzzCase(state_->kind, b, sizeB), seed);
  return putBytes(encodeFuzzCase(c), out, maxOut);
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
