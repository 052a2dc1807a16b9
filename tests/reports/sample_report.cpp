#include "tests/reports/sample_report.h"

namespace convcheck::testing {

using nlohmann::json;

ExchangeRef sampleExchange(const std::vector<json>& objects, const std::string& desired,
                           const std::string& body, long status) {
  Exchange ex;
  ex.sent.uid = "8d4b6c1e-0000-4000-8000-000000000001";
  ex.sent.desiredApiVersion = desired;
  ex.sent.objects = SharedObjects::own(objects);
  ex.sent.kind = "CronTab";
  ex.sent.listKind = "CronTabList";
  ex.http.url = "https://127.0.0.1:9443/convert?timeout=30s";
  ex.http.status = status;
  ex.http.contentType = "application/json";
  ex.http.body = body;
  ex.http.elapsed = std::chrono::microseconds(1500);
  if (status != 200) {
    ex.verdict.stage = ModelStage::HttpStatus;
    ex.verdict.message = "conversion webhook returned HTTP " + std::to_string(status);
  }
  return share(std::move(ex));
}

RunReport sampleReport(const std::string& text) {
  RunReport r;
  r.version = "0.test";
  r.seed = 18446744073709551557ull;
  r.command = "convcheck run --crd crontab.yaml --seed 18446744073709551557";
  r.startedAt = "2026-11-26T12:00:00Z";
  r.seconds = 12.5;
  r.exitCode = 1;
  KindReport k;
  k.kind = "CronTab";
  k.crdName = "crontabs.stable.example.com";
  k.group = "stable.example.com";
  k.url = "https://127.0.0.1:9443/convert";
  k.reviewVersion = "v1";
  k.versions = {"v1", "v1beta1", "v0"};
  k.storageVersion = "v1";
  k.versionRoles = {{"v1", "served, storage: counts as source and target"},
                    {"v1beta1", "served: counts as source and target"},
                    {"v0", "not served, not stored: findings only warn"}};
  k.requests = 400;
  k.objectsSent = 1800;
  k.seconds = 12;
  k.crd.name = k.crdName;
  k.crd.kind = "CronTab";
  k.crd.group = "stable.example.com";
  k.crd.plural = "crontabs";
  k.crd.listKind = "CronTabList";
  k.crd.conversionStrategy = "Webhook";
  k.crd.conversionReviewVersions = {"v1"};
  k.crd.clientConfig.url = k.url;
  const json schema = {
      {"type", "object"},
      {"properties",
       {{"spec", {{"type", "object"}, {"properties", {{"image", {{"type", "string"}}}}}}}}}};
  k.crd.versions = {CrdVersion{"v1", true, true, false, schema, false},
                    CrdVersion{"v1beta1", true, false, false, schema, false},
                    CrdVersion{"v0", false, false, false, schema, false}};

  const json object = {{"apiVersion", "stable.example.com/v1"},
                       {"kind", "CronTab"},
                       {"metadata", {{"name", "a"}, {"namespace", "default"}, {"uid", "u1"}}},
                       {"spec", {{"image", text}}}};
  Finding lost;
  lost.property = "round-trip";
  lost.from = "v1";
  lost.to = "v1beta1";
  lost.summary = "a read-modify-write at v1beta1 silently deletes spec.image " + text;
  lost.expected = {{"spec", {{"image", text}}}};
  lost.got = {{"spec", json::object()}};
  lost.batch = SharedObjects::own({object});
  lost.caseObjects = SharedObjects::own({object});
  lost.caseTo = "v1beta1";
  lost.seed = 7;
  lost.part = "composite";
  lost.origin = "generated";
  lost.exchanges = {sampleExchange({object}, "stable.example.com/v1beta1",
                                   R"({"response":{"convertedObjects":[]}})")};
  lost.cause = Cause{"round-trip|lost|spec.image", Severity::DataLoss,
                     "spec.image is lost (was \"" + text + "\")", "spec.image"};
  lost.cases = 5;
  lost.shrink = ShrinkInfo{12, 1, 300, 9, 20000, 310, 1, 23, 4, true, false};

  Finding rejected;
  rejected.property = "converts-valid-input";
  rejected.from = "v1beta1";
  rejected.to = "v1";
  rejected.summary = "kube-apiserver rejects the conversion";
  rejected.apiserverMessage = "conversion webhook returned HTTP 500: " + text;
  rejected.batch = SharedObjects::own({object});
  rejected.caseObjects = SharedObjects::own({object});
  rejected.caseTo = "v1";
  rejected.exchanges = {sampleExchange({object}, "stable.example.com/v1", "boom " + text, 500)};
  rejected.cause = Cause{"converts-valid-input|rejected|http-status", Severity::Outage,
                         "kube-apiserver rejects the answer: HTTP 500 " + text, ""};
  rejected.cases = 4;

  PropertyTally order{"order", "v1beta1", "v1", 10, 0, 0, {}, "", false};
  PropertyTally rt1{"round-trip", "v1", "v1beta1", 7, 3, 0, {lost}, "", false};
  PropertyTally rt2{"round-trip", "v1beta1", "v1", 8, 2, 0, {lost}, "", false};
  PropertyTally cvi{"converts-valid-input", "v1beta1", "v1", 6, 4, 0, {rejected}, "", false};
  PropertyTally warn{
      "round-trip", "v0", "v1", 9, 1, 0, {lost}, "", true, "v0 is neither served nor stored"};
  PropertyTally blocked{
      "determinism", "v1", "v1beta1", 0, 0, 5, {}, "the forward conversion was rejected", false};
  PropertyTally timeout{"timeout", "v1", "v1beta1", 10, 0, 0, {}, "", false};
  k.tallies = {order, rt1, rt2, cvi, warn, blocked, timeout};

  Problem p1;
  p1.id = "P1";
  p1.key = "rejected|http-status";
  p1.severity = Severity::Outage;
  p1.title = rejected.cause->title;
  p1.sites = {{"converts-valid-input", "v1beta1", "v1", 4, false}};
  p1.cases = 4;
  p1.example = rejected;
  Problem p2;
  p2.id = "P2";
  p2.key = "lost|spec.image";
  p2.severity = Severity::DataLoss;
  p2.title = lost.cause->title;
  p2.sites = {{"round-trip", "v1", "v1beta1", 3, false},
              {"round-trip", "v1beta1", "v1", 2, false},
              {"round-trip", "v0", "v1", 1, true}};
  p2.cases = 6;
  p2.example = lost;
  k.problems = {p1, p2};

  LatencyStats l;
  l.from = "v1";
  l.to = "v1beta1";
  l.batchSizes = "1";
  l.samples = 10;
  l.p50Ms = 1.5;
  l.p95Ms = 2.5;
  l.p99Ms = 3.5;
  l.maxMs = 4;
  k.latency.push_back(l);
  r.kinds.push_back(k);
  return r;
}

}  // namespace convcheck::testing
