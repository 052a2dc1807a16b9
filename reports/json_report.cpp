#include "reports/json_report.h"

#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "kube/go/utf8.h"
#include "properties/checks/property_registry.h"
#include "reports/problem_list.h"

namespace convcheck {

using nlohmann::json;

namespace {
constexpr std::size_t kMaxBodyBytes = std::size_t{1} << 20;  // of each response body shown
}  // namespace

json exchangeToJson(const Exchange& ex) {
  json out;
  out["request"] = {{"reviewVersion", reviewApiVersion(ex.sent.version)},
                    {"uid", ex.sent.uid},
                    {"desiredAPIVersion", ex.sent.desiredApiVersion},
                    {"objects", ex.sent.objects.size()},
                    {"body", requestBodyOf(ex)}};
  out["response"] = {{"url", ex.http.url},
                     {"status", ex.http.status},
                     {"contentType", ex.http.contentType},
                     {"transportError", ex.http.transportError},
                     {"elapsedMs", ex.http.elapsed.count() / 1000.0},
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
json findingToJson(const Finding& f) {
  json out = {{"property", f.property},
              {"from", f.from},
              {"to", f.to},
              {"summary", f.summary},
              {"apiserverMessage", f.apiserverMessage},
              {"details", f.details},
              {"expected", f.expected},
              {"got", f.got},
              {"batch", f.batch.copy()}};
  out["exchanges"] = json::array();
  for (const auto& ex : f.exchanges) out["exchanges"].push_back(exchangeToJson(*ex));
  if (!f.caseTo.empty()) {
    out["caseObjects"] = f.caseObjects;
    out["seed"] = std::to_string(f.seed);
    out["caseTo"] = f.caseTo;
    out["part"] = f.part;
    out["origin"] = f.origin;
    out["foundAtRequest"] = f.foundAtRequest;
  }
  if (f.shrink) out["shrink"] = shrinkInfoToJson(*f.shrink);
  auto causeJson = [](const Cause& c) {
    return json{{"key", c.key}, {"severity", severityName(c.severity)}, {"title", c.title}};
  };
  if (f.cause) {
    out["cause"] = causeJson(*f.cause);
    out["cases"] = f.cases;
  }
  out["causes"] = json::array();
  for (const auto& c : f.causes) out["causes"].push_back(causeJson(c));
  if (!f.bundle.empty()) out["bundle"] = f.bundle;
  if (!f.curl.empty()) out["curl"] = f.curl;
  return out;
}
}  // namespace

json problemToJson(const Problem& p) {
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
              {"example", findingToJson(p.example)}};
  if (!p.example.bundle.empty()) out["bundle"] = p.example.bundle;
  return out;
}

json reportToJson(const RunReport& report) {
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
                 {"seconds", k.seconds}};
    const std::vector<Problem> problems = problemsOf(k);
    kind["problems"] = json::array();
    for (const auto& p : problems) kind["problems"].push_back(problemToJson(p));
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
      r["findings"] = json::array();  // the example of each of its causes the run kept
      for (const auto& f : t.findings) r["findings"].push_back(findingToJson(f));
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
    out["kinds"].push_back(kind);
  }
  return out;
}

std::string writeJsonReport(const RunReport& report, const std::string& path) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return fmt::format("cannot write JSON report {}", path);
    f << reportToJson(report).dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    if (!f.flush()) return fmt::format("cannot write JSON report {}", path);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return fmt::format("cannot move JSON report into place at {}", path);
  return "";
}

}  // namespace convcheck
