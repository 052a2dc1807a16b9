#include "reports/json_report.h"

#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "kube/go/utf8.h"
#include "properties/checks/property_registry.h"
#include "reports/coverage_json.h"
#include "reports/problem_list.h"

namespace convcheck {

using nlohmann::json;

namespace {
// Of each request and response body shown in results.json (a bundle has them whole).
constexpr std::size_t kMaxBodyBytes = std::size_t{64} << 10;
// Problems are written with their whole example (objects, exchanges, expected and got) until
// the examples reach this size; later ones (less severe, fewer cases) say what their example is
// and where its bundle is, so a webhook with hundreds of problems still gives a file of a few MB.
constexpr std::size_t kExamplesBudget = std::size_t{4} << 20;
}  // namespace

json exchangeToJson(const Exchange& ex) {
  json out;
  const std::string request = requestBodyOf(ex);
  out["request"] = {{"reviewVersion", reviewApiVersion(ex.sent.version)},
                    {"uid", ex.sent.uid},
                    {"desiredAPIVersion", ex.sent.desiredApiVersion},
                    {"objects", ex.sent.objects.size()},
                    {"bodyBytes", request.size()},
                    {"body", toValidUtf8(shortenUtf8(request, kMaxBodyBytes))}};
  out["response"] = {{"url", ex.http.url},
                     {"status", ex.http.status},
                     {"contentType", ex.http.contentType},
                     {"transportError", ex.http.transportError},
                     {"elapsedMs", ex.http.elapsed.count() / 1000.0},
                     {"bodyBytes", ex.http.body.size()},
                     {"body", toValidUtf8(shortenUtf8(ex.http.body, kMaxBodyBytes))}};
  out["apiserver"] = {{"stage", modelStageName(ex.verdict.stage)}, {"message", ex.verdict.message}};
  return out;
}

json shrinkInfoToJson(const ShrinkInfo& s) {
  return {{"originalObjects", s.originalObjects},
          {"shrunkObjects", s.shrunkObjects},
          {"originalFields", s.originalFields},
          {"shrunkFields", s.shrunkFields},
          {"originalBytes", s.originalBytes},
          {"shrunkBytes", s.shrunkBytes},
          {"optionalFields", s.optionalFields},
          {"calls", s.calls},
          {"steps", s.steps},
          {"reproduced", s.reproduced},
          {"budgetExhausted", s.budgetExhausted}};
}

namespace {

json causeToJson(const Cause& c) {
  return json{{"key", c.key}, {"severity", severityName(c.severity)}, {"title", c.title}};
}

// The example of a problem: with `whole`, everything a consumer needs to see and re-run it;
// otherwise what it is and how big, the objects and exchanges being in its bundle.
json exampleToJson(const Finding& f, const BundleRef* bundle, bool whole) {
  json out = {{"property", f.property},
              {"from", f.from},
              {"to", f.to},
              {"summary", f.summary},
              {"apiserverMessage", f.apiserverMessage},
              {"details", f.details},
              {"whole", whole}};
  if (whole) {
    out["expected"] = f.expected;
    out["got"] = f.got;
    out["batch"] = f.batch.copy();
    out["exchanges"] = json::array();
    for (const auto& ex : f.exchanges) out["exchanges"].push_back(exchangeToJson(*ex));
  } else {
    out["batchObjects"] = f.batch.size();
    out["exchangeCount"] = f.exchanges.size();
  }
  if (!f.caseTo.empty()) {
    if (whole) out["caseObjects"] = f.caseObjects.copy();
    out["seed"] = std::to_string(f.seed);
    out["caseTo"] = f.caseTo;
    out["part"] = f.part;
    out["origin"] = f.origin;
    out["foundAtRequest"] = f.foundAtRequest;
  }
  if (f.shrink) out["shrink"] = shrinkInfoToJson(*f.shrink);
  if (f.cause) {
    out["cause"] = causeToJson(*f.cause);
    out["cases"] = f.cases;
  }
  out["causes"] = json::array();
  for (const auto& c : f.causes) out["causes"].push_back(causeToJson(c));
  if (bundle != nullptr) {
    out["bundle"] = bundle->dir;
    if (!bundle->curl.empty()) out["curl"] = bundle->curl;
  }
  return out;
}

}  // namespace

json problemToJson(const Problem& p, const BundleRef* bundle, bool wholeExample) {
  json sites = json::array();
  for (const auto& site : p.sites)
    sites.push_back({{"property", site.property},
                     {"from", site.from},
                     {"to", site.to},
                     {"cases", site.cases},
                     {"warningOnly", site.warningOnly}});
  json out = {{"id", p.id},
              {"key", p.key},
              {"severity", severityName(p.severity)},
              {"title", p.title},
              {"cases", p.cases},
              {"warningOnly", p.warningOnly},
              {"warningReason", p.warningReason},
              {"sites", sites},
              {"symptomKeys", p.symptomKeys},
              {"symptoms", p.symptoms},
              {"example", exampleToJson(p.example, bundle, wholeExample)}};
  if (bundle != nullptr) out["bundle"] = bundle->dir;
  return out;
}

json reportToJson(const RunReport& report, const WrittenBundles& bundles) {
  std::size_t examples = 0;  // bytes of the whole examples written so far
  json out;
  out["format"] = kResultsFormat;
  out["convcheck"] = report.version;
  out["seed"] = std::to_string(report.seed);
  out["command"] = report.command;
  out["startedAt"] = report.startedAt;
  out["exitCode"] = report.exitCode;
  out["interrupted"] = report.interrupted;
  out["fatalError"] = report.fatalError;
  out["seconds"] = report.seconds;
  out["warnings"] = report.warnings;
  if (report.shardCount > 1)
    out["shard"] = {{"index", report.shardIndex + 1},
                    {"count", report.shardCount},
                    {"pairs", report.shardPairs},
                    {"runPairs", report.runPairs}};
  out["kinds"] = json::array();
  for (const auto& k : report.kinds) {
    json kind = {{"crd", k.crdName},
                 {"kind", k.kind},
                 {"group", k.group},
                 {"source", k.source},
                 {"url", k.url},
                 {"reviewVersion", k.reviewVersion},
                 {"versions", k.versions},
                 {"versionRoles", k.versionRoles},
                 {"storageVersion", k.storageVersion},
                 {"storedVersions", k.storedVersions},
                 {"notServed", k.notServed},
                 {"warningVersions", k.warningVersions},
                 {"notes", k.notes},
                 {"requests", k.requests},
                 {"objectsSent", k.objectsSent},
                 {"seconds", k.seconds},
                 {"order", k.order}};
    const std::vector<Problem>& problems = k.problems;
    kind["problems"] = json::array();
    for (const auto& p : problems) {
      json one = problemToJson(p, bundles.find(k, p), examples < kExamplesBudget);
      if (one["example"]["whole"] == true)
        examples += one["example"].dump(-1, ' ', false, json::error_handler_t::replace).size();
      kind["problems"].push_back(std::move(one));
    }
    kind["results"] = json::array();
    for (const auto& t : k.tallies) {
      json r = {{"property", t.property},
                {"from", t.from},
                {"to", t.to},
                {"passed", t.passed},
                {"failed", t.failed},
                {"notEvaluable", t.blocked},
                {"warningOnly", t.warningOnly},
                {"warningReason", t.warningReason},
                {"verdict", t.failed > 0 ? (t.warningOnly ? "warning" : "fail")
                                         : (t.passed > 0 ? "pass" : "not-evaluable")}};
      if (!t.blockedBy.empty()) r["notEvaluableBecause"] = t.blockedBy;
      r["problems"] = json::array();
      for (const Problem* p : problemsAt(problems, t)) r["problems"].push_back(p->id);
      // Its causes, counted; their examples are the problems'.
      r["causes"] = json::array();
      for (const auto& f : t.findings)
        if (f.cause) {
          json c = causeToJson(*f.cause);
          c["cases"] = f.cases;
          r["causes"].push_back(std::move(c));
        }
      if (t.moreCauses > 0) r["moreCauses"] = t.moreCauses;
      r["acknowledged"] = json::array();
      for (const auto& a : t.acknowledged)
        r["acknowledged"].push_back({{"cause", a.ack.cause.key},
                                     {"title", a.ack.cause.title},
                                     {"reason", a.ack.reason},
                                     {"where", a.ack.where},
                                     {"cases", a.cases}});
      kind["results"].push_back(r);
    }
    kind["latency"] = json::array();
    for (const auto& l : k.latency)
      kind["latency"].push_back({{"from", l.from},
                                 {"to", l.to},
                                 {"batchSizes", l.batchSizes},
                                 {"samples", l.samples},
                                 {"p50Ms", l.p50Ms},
                                 {"p95Ms", l.p95Ms},
                                 {"p99Ms", l.p99Ms},
                                 {"maxMs", l.maxMs}});
    if (k.coverage.collected()) kind["coverage"] = coverageToJson(k.coverage);
    out["kinds"].push_back(kind);
  }
  return out;
}

std::string writeJsonReport(const RunReport& report, const WrittenBundles& bundles,
                            const std::string& path) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return fmt::format("cannot write JSON report {}", path);
    f << reportToJson(report, bundles).dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    if (!f.flush()) return fmt::format("cannot write JSON report {}", path);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return fmt::format("cannot move JSON report into place at {}", path);
  return "";
}

}  // namespace convcheck
