#include "reports/results_reader.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/json_report.h"

namespace convcheck {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A field that is missing or of the wrong type, named by its place in the file.
struct FieldError {
  std::string field;
  std::string what;
};

class Reader {
 public:
  explicit Reader(std::string at) : at_(std::move(at)) {}

  template <typename T>
  T get(const json& object, const std::string& name) const {
    const auto it = object.find(name);
    if (it == object.end()) throw FieldError{at_ + name, "is missing"};
    try {
      return it->get<T>();
    } catch (const json::exception& e) {
      throw FieldError{at_ + name, e.what()};
    }
  }
  template <typename T>
  T get(const json& object, const std::string& name, T fallback) const {
    return object.contains(name) ? get<T>(object, name) : fallback;
  }
  const json& array(const json& object, const std::string& name) const {
    const auto it = object.find(name);
    if (it == object.end() || !it->is_array()) throw FieldError{at_ + name, "is not a list"};
    return *it;
  }
  Reader in(const std::string& name) const { return Reader(at_ + name + "."); }
  Reader in(const std::string& name, std::size_t index) const {
    return Reader(fmt::format("{}{}[{}].", at_, name, index));
  }

 private:
  std::string at_;  // "kinds[0].problems[2]."
};

Severity severityOf(const std::string& name, const std::string& field) {
  for (int s = 0; s <= static_cast<int>(Severity::Cosmetic); ++s)
    if (name == severityName(static_cast<Severity>(s))) return static_cast<Severity>(s);
  throw FieldError{field, fmt::format("\"{}\" is not a severity", name)};
}

Cause readCause(const json& j, const Reader& r) {
  Cause c;
  c.key = r.get<std::string>(j, "key");
  c.severity = severityOf(r.get<std::string>(j, "severity"), "severity");
  c.title = r.get<std::string>(j, "title");
  return c;
}

ShrinkInfo readShrink(const json& j, const Reader& r) {
  ShrinkInfo s;
  s.originalObjects = r.get<int>(j, "originalObjects");
  s.shrunkObjects = r.get<int>(j, "shrunkObjects");
  s.originalFields = r.get<int>(j, "originalFields");
  s.shrunkFields = r.get<int>(j, "shrunkFields");
  s.originalBytes = r.get<std::size_t>(j, "originalBytes");
  s.shrunkBytes = r.get<std::size_t>(j, "shrunkBytes");
  s.optionalFields = r.get<int>(j, "optionalFields");
  s.calls = r.get<int>(j, "calls");
  s.steps = r.get<int>(j, "steps");
  s.reproduced = r.get<bool>(j, "reproduced");
  s.budgetExhausted = r.get<bool>(j, "budgetExhausted");
  return s;
}

// The example as exampleToJson wrote it, without its exchanges.
Finding readExample(const json& j, const Reader& r) {
  Finding f;
  f.property = r.get<std::string>(j, "property");
  f.from = r.get<std::string>(j, "from");
  f.to = r.get<std::string>(j, "to");
  f.summary = r.get<std::string>(j, "summary");
  f.apiserverMessage = r.get<std::string>(j, "apiserverMessage");
  f.details = r.get<std::vector<std::string>>(j, "details");
  f.expected = j.value("expected", json());
  f.got = j.value("got", json());
  if (j.contains("batch")) f.batch = SharedObjects::own(r.get<std::vector<json>>(j, "batch"));
  if (j.contains("caseTo")) {
    f.caseObjects = SharedObjects::own(r.get<std::vector<json>>(j, "caseObjects", {}));
    f.seed = std::stoull(r.get<std::string>(j, "seed"));
    f.caseTo = r.get<std::string>(j, "caseTo");
    f.part = r.get<std::string>(j, "part");
    f.origin = r.get<std::string>(j, "origin");
    f.foundAtRequest = r.get<int>(j, "foundAtRequest");
  }
  if (j.contains("shrink")) f.shrink = readShrink(j.at("shrink"), r.in("shrink"));
  if (j.contains("cause")) {
    f.cause = readCause(j.at("cause"), r.in("cause"));
    f.cases = r.get<int>(j, "cases");
  }
  const json& causes = r.array(j, "causes");
  for (std::size_t i = 0; i < causes.size(); ++i)
    f.causes.push_back(readCause(causes[i], r.in("causes", i)));
  return f;
}

Problem readProblem(const json& j, const Reader& r) {
  Problem p;
  p.id = r.get<std::string>(j, "id");
  p.key = r.get<std::string>(j, "key");
  p.severity = severityOf(r.get<std::string>(j, "severity"), "severity");
  p.title = r.get<std::string>(j, "title");
  p.cases = r.get<int>(j, "cases");
  p.warningOnly = r.get<bool>(j, "warningOnly");
  p.warningReason = r.get<std::string>(j, "warningReason");
  const json& sites = r.array(j, "sites");
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const Reader s = r.in("sites", i);
    p.sites.push_back({s.get<std::string>(sites[i], "property"),
                       s.get<std::string>(sites[i], "from"), s.get<std::string>(sites[i], "to"),
                       s.get<int>(sites[i], "cases"), s.get<bool>(sites[i], "warningOnly")});
  }
  p.symptomKeys = r.get<std::vector<std::string>>(j, "symptomKeys", {});
  p.symptoms = r.get<std::vector<std::string>>(j, "symptoms", {});
  p.example = readExample(j.at("example"), r.in("example"));
  return p;
}

PropertyTally readTally(const json& j, const Reader& r) {
  PropertyTally t;
  t.property = r.get<std::string>(j, "property");
  t.from = r.get<std::string>(j, "from");
  t.to = r.get<std::string>(j, "to");
  t.passed = r.get<int>(j, "passed");
  t.failed = r.get<int>(j, "failed");
  t.blocked = r.get<int>(j, "notEvaluable");
  t.warningOnly = r.get<bool>(j, "warningOnly");
  t.warningReason = r.get<std::string>(j, "warningReason");
  t.blockedBy = r.get<std::string>(j, "notEvaluableBecause", std::string());
  t.moreCauses = r.get<int>(j, "moreCauses", 0);
  const json& causes = r.array(j, "causes");
  for (std::size_t i = 0; i < causes.size(); ++i) {
    Finding f;  // a cause counted, its example being its problem's
    f.cause = readCause(causes[i], r.in("causes", i));
    f.cases = r.in("causes", i).get<int>(causes[i], "cases");
    t.findings.push_back(std::move(f));
  }
  const json& acks = r.array(j, "acknowledged");
  for (std::size_t i = 0; i < acks.size(); ++i) {
    const Reader a = r.in("acknowledged", i);
    AcknowledgedTally ack;
    ack.ack.cause.key = a.get<std::string>(acks[i], "cause");
    ack.ack.cause.title = a.get<std::string>(acks[i], "title");
    ack.ack.reason = a.get<std::string>(acks[i], "reason");
    ack.ack.where = a.get<std::string>(acks[i], "where");
    ack.cases = a.get<int>(acks[i], "cases");
    t.acknowledged.push_back(std::move(ack));
  }
  return t;
}

// The bundle of a problem as this results file's directory holds it.
BundleRef bundleOf(const json& problem, const fs::path& resultsDir) {
  BundleRef b;
  b.dir = problem.value("bundle", std::string());
  const json& example = problem.at("example");
  b.curl = example.value("curl", std::string());
  const fs::path beside = resultsDir / "bundles" / fs::path(b.dir).filename();
  std::error_code ec;
  if (fs::is_directory(beside, ec)) b.dir = beside.lexically_normal().string();
  return b;
}

KindReport readKind(const json& j, const Reader& r, const fs::path& resultsDir,
                    WrittenBundles& bundles) {
  KindReport k;
  k.crdName = r.get<std::string>(j, "crd");
  k.kind = r.get<std::string>(j, "kind");
  k.group = r.get<std::string>(j, "group");
  k.source = r.get<std::string>(j, "source");
  k.url = r.get<std::string>(j, "url");
  k.reviewVersion = r.get<std::string>(j, "reviewVersion");
  k.versions = r.get<std::vector<std::string>>(j, "versions");
  k.versionRoles = r.get<std::map<std::string, std::string>>(j, "versionRoles");
  k.storageVersion = r.get<std::string>(j, "storageVersion");
  k.storedVersions = r.get<std::vector<std::string>>(j, "storedVersions");
  k.notServed = r.get<std::vector<std::string>>(j, "notServed");
  k.warningVersions = r.get<std::map<std::string, std::string>>(j, "warningVersions");
  k.notes = r.get<std::vector<std::string>>(j, "notes");
  k.requests = r.get<int>(j, "requests");
  k.objectsSent = r.get<int>(j, "objectsSent");
  k.seconds = r.get<double>(j, "seconds");
  k.order = r.get<int>(j, "order", 0);
  k.crd.name = k.crdName;
  k.crd.kind = k.kind;
  k.crd.group = k.group;
  const json& problems = r.array(j, "problems");
  for (std::size_t i = 0; i < problems.size(); ++i)
    k.problems.push_back(readProblem(problems[i], r.in("problems", i)));
  for (std::size_t i = 0; i < problems.size(); ++i)
    if (problems[i].contains("bundle"))
      bundles.add(k, k.problems[i], bundleOf(problems[i], resultsDir));
  const json& results = r.array(j, "results");
  for (std::size_t i = 0; i < results.size(); ++i)
    k.tallies.push_back(readTally(results[i], r.in("results", i)));
  const json& latency = r.array(j, "latency");
  for (std::size_t i = 0; i < latency.size(); ++i) {
    const Reader l = r.in("latency", i);
    LatencyStats s;
    s.from = l.get<std::string>(latency[i], "from");
    s.to = l.get<std::string>(latency[i], "to");
    s.batchSizes = l.get<std::string>(latency[i], "batchSizes");
    s.samples = l.get<int>(latency[i], "samples");
    s.p50Ms = l.get<double>(latency[i], "p50Ms");
    s.p95Ms = l.get<double>(latency[i], "p95Ms");
    s.p99Ms = l.get<double>(latency[i], "p99Ms");
    s.maxMs = l.get<double>(latency[i], "maxMs");
    k.latency.push_back(s);
  }
  return k;
}

}  // namespace

std::variant<ResultsFile, std::string> readResultsFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fmt::format("{}: cannot read it", path);
  std::stringstream text;
  text << in.rdbuf();
  const json doc = json::parse(text.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    return fmt::format("{}: not JSON (a results.json of convcheck run is)", path);
  ResultsFile out;
  out.path = path;
  const fs::path dir = fs::path(path).parent_path();
  const Reader r("");
  try {
    const int format = r.get<int>(doc, "format");
    if (format != kResultsFormat)
      return fmt::format(
          "{}: format {}: this convcheck reads format {} (run both with the same "
          "convcheck version)",
          path, format, kResultsFormat);
    RunReport& report = out.report;
    report.version = r.get<std::string>(doc, "convcheck");
    report.seed = std::stoull(r.get<std::string>(doc, "seed"));
    report.command = r.get<std::string>(doc, "command");
    report.startedAt = r.get<std::string>(doc, "startedAt");
    report.exitCode = r.get<int>(doc, "exitCode");
    report.interrupted = r.get<bool>(doc, "interrupted");
    report.fatalError = r.get<std::string>(doc, "fatalError");
    report.seconds = r.get<double>(doc, "seconds");
    report.warnings = r.get<std::vector<std::string>>(doc, "warnings");
    if (doc.contains("shard")) {
      const Reader s = r.in("shard");
      report.shardIndex = s.get<int>(doc.at("shard"), "index") - 1;
      report.shardCount = s.get<int>(doc.at("shard"), "count");
      report.shardPairs = s.get<int>(doc.at("shard"), "pairs", 0);
      report.runPairs = s.get<int>(doc.at("shard"), "runPairs", 0);
      if (report.shardCount < 1 || report.shardIndex < 0 || report.shardIndex >= report.shardCount)
        throw FieldError{"shard", "is not I/N with 1 <= I <= N"};
    }
    const json& kinds = r.array(doc, "kinds");
    for (std::size_t i = 0; i < kinds.size(); ++i)
      report.kinds.push_back(readKind(kinds[i], r.in("kinds", i), dir, out.bundles));
  } catch (const FieldError& e) {
    return fmt::format("{}: {} {}", path, e.field, e.what);
  } catch (const std::exception& e) {  // a seed that is not a number
    return fmt::format("{}: {}", path, e.what());
  }
  return out;
}

}  // namespace convcheck
