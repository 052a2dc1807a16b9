#include "properties/checks/exchange_checks.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "properties/checks/json_diff.h"
#include "properties/checks/response_view.h"
#include "properties/label_validation.h"

namespace convcheck {
namespace {

using nlohmann::json;

CheckResult pass(const char* property) { return {property, Outcome::Pass, std::nullopt, ""}; }
CheckResult blocked(const char* property, std::string why) {
  return {property, Outcome::Blocked, std::nullopt, std::move(why)};
}

struct Checker {
  const Exchange& ex;
  const CaseContext& ctx;
  ResponseView view;

  CheckResult fail(const char* property, std::string summary, std::vector<std::string> details = {},
                   json expected = nullptr, json got = nullptr) const {
    Finding f;
    f.property = property;
    f.from = ctx.from;
    f.to = ctx.to;
    f.summary = std::move(summary);
    f.apiserverMessage = ex.verdict.accepted() ? "" : ex.verdict.message;
    f.details = std::move(details);
    f.expected = std::move(expected);
    f.got = std::move(got);
    f.batch = ex.sent.objects;
    f.exchanges = {ex};
    return {property, Outcome::Fail, std::move(f), ""};
  }

  bool timedOut() const { return !ex.http.ok() && ex.http.transportErrorKind == "timeout"; }

  CheckResult timeout() const {
    if (timedOut() || ex.http.elapsed > ctx.timeout)
      return fail("timeout",
                  fmt::format("the webhook did not answer within {} ms; kube-apiserver gives up "
                              "after 30 s and every read of this kind at {} fails meanwhile",
                              ctx.timeout.count(), ctx.to),
                  {ex.http.transportError});
    return pass("timeout");
  }

  CheckResult envelope() const {
    if (timedOut()) return blocked("response-envelope", "no answer within the timeout");
    if (!ex.http.ok())
      return fail("response-envelope",
                  fmt::format("the call failed before any answer ({}); every request needing "
                              "conversion to {} fails while this happens",
                              ex.http.transportErrorKind, ctx.to),
                  {ex.http.transportError});
    switch (ex.verdict.stage) {
      case ModelStage::HttpStatus:
      case ModelStage::EmptyBody:
      case ModelStage::Decode:
      case ModelStage::EnvelopeGvk:
      case ModelStage::ResultStatus:
        // A well-formed refusal is judged by converts-valid-input; other statuses are malformed.
        if (view.resultStatus == "Failure") return pass("response-envelope");
        [[fallthrough]];
      case ModelStage::NoResponse:
      case ModelStage::ObjectParse:
        return fail("response-envelope",
                    fmt::format("kube-apiserver rejects the answer ({}), so every get, list, "
                                "watch and write needing {} -> {} fails with HTTP 500",
                                modelStageName(ex.verdict.stage), ctx.from, ctx.to));
      default:
        return pass("response-envelope");
    }
  }

  CheckResult uidEcho() const {
    if (!view.hasResponse) return blocked("uid-echo", "no decodable response");
    std::string got = view.uid.value_or("");
    if (got == ex.sent.uid) return pass("uid-echo");
    std::string note = ex.sent.version == ReviewVersion::V1
                           ? "kube-apiserver rejects v1 reviews whose response.uid differs"
                           : "kube-apiserver does not enforce this for v1beta1 reviews, but "
                             "rejects it as soon as the CRD lists v1 first";
    return fail("uid-echo",
                fmt::format("response.uid is {} instead of the request's {}; {}", json(got).dump(),
                            json(ex.sent.uid).dump(), note),
                {}, json(ex.sent.uid), json(got));
  }

  // Properties below need a Success answer with objects to look at.
  std::string objectsUnavailable() const {
    if (!view.hasResponse) return "no decodable response";
    if (view.resultStatus != "Success") return "result.status is not Success";
    return "";
  }

  CheckResult count() const {
    if (auto why = objectsUnavailable(); !why.empty()) return blocked("object-count", why);
    std::size_t sent = ex.sent.objects.size(), got = view.convertedCount;
    if (sent == got) return pass("object-count");
    return fail("object-count",
                fmt::format("{} objects sent, {} returned; kube-apiserver rejects the answer and "
                            "the read or write fails",
                            sent, got),
                {}, json(sent), json(got));
  }

  std::string perObjectUnavailable() const {
    if (auto why = objectsUnavailable(); !why.empty()) return why;
    if (view.convertedCount != ex.sent.objects.size()) return "object count differs";
    return "";
  }

  bool isPermutation() const {
    std::vector<ObjectIdentity> a, b;
    for (const auto& o : ex.sent.objects) a.push_back(identityOf(o));
    for (const auto& o : view.convertedObjects) b.push_back(identityOf(o));
    if (a == b) return false;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
  }

  CheckResult order() const {
    if (auto why = perObjectUnavailable(); !why.empty()) return blocked("order", why);
    if (!isPermutation()) return pass("order");
    json sentIds = json::array(), gotIds = json::array();
    std::vector<std::string> details;
    for (std::size_t i = 0; i < ex.sent.objects.size(); ++i) {
      auto s = identityOf(ex.sent.objects[i]), g = identityOf(view.convertedObjects[i]);
      sentIds.push_back(describe(s));
      gotIds.push_back(describe(g));
      if (!(s == g))
        details.push_back(fmt::format("index {}: sent {}, got {}", i, describe(s), describe(g)));
    }
    return fail("order",
                "converted objects come back in a different order; kube-apiserver matches them "
                "by position, so a list with objects of several versions fails (or, with equal "
                "names, shows one object's data under another's name)",
                details, sentIds, gotIds);
  }

  static json metadataRest(const json& object) {
    json rest = json::object();
    if (!object.is_object() || !object.contains("metadata") || !object["metadata"].is_object())
      return rest;
    for (auto it = object["metadata"].begin(); it != object["metadata"].end(); ++it) {
      if (it.key() == "labels" || it.key() == "annotations") continue;
      const json& v = it.value();
      if (v.is_null() || ((v.is_object() || v.is_array()) && v.empty())) continue;
      if (v.is_string() && v.get<std::string>().empty()) continue;
      if (v.is_number() && v == json(0)) continue;
      rest[it.key()] = v;
    }
    return rest;
  }

  // Index of the sent object each returned object is the conversion of.
  std::vector<std::size_t> pairing() const {
    std::vector<std::size_t> match(view.convertedObjects.size());
    bool permuted = isPermutation();
    for (std::size_t i = 0; i < match.size(); ++i) {
      match[i] = i;
      if (!permuted) continue;
      auto id = identityOf(view.convertedObjects[i]);
      for (std::size_t j = 0; j < ex.sent.objects.size(); ++j)
        if (identityOf(ex.sent.objects[j]) == id) match[i] = j;
    }
    return match;
  }

  CheckResult metadata() const {
    if (auto why = perObjectUnavailable(); !why.empty()) return blocked("metadata-immutable", why);
    auto match = pairing();
    std::vector<std::string> rejected, reverted;
    json expected = json::array(), got = json::array();
    for (std::size_t i = 0; i < match.size(); ++i) {
      const json& sent = ex.sent.objects[match[i]];
      const json& back = view.convertedObjects[i];
      auto s = identityOf(sent), g = identityOf(back);
      if (s.name != g.name)
        rejected.push_back(fmt::format("index {}: metadata.name {} -> {}", i, json(s.name).dump(),
                                       json(g.name).dump()));
      if (s.ns != g.ns)
        rejected.push_back(fmt::format("index {}: metadata.namespace {} -> {}", i,
                                       json(s.ns).dump(), json(g.ns).dump()));
      if (s.uid != g.uid)
        rejected.push_back(fmt::format("index {}: metadata.uid {} -> {}", i, json(s.uid).dump(),
                                       json(g.uid).dump()));
      json a = metadataRest(sent), b = metadataRest(back);
      for (auto key : {"name", "namespace", "uid"}) {
        a.erase(key);
        b.erase(key);
      }
      if (a != b) {
        for (const auto& line : jsonDiff(a, b))
          reverted.push_back(fmt::format("index {}: metadata.{}", i, line.path));
        expected.push_back(a);
        got.push_back(b);
      }
    }
    if (rejected.empty() && reverted.empty()) return pass("metadata-immutable");
    std::string summary;
    if (!rejected.empty())
      summary =
          "the webhook changes name, namespace or uid; kube-apiserver rejects the answer, so "
          "the object cannot be read or written at this version";
    else
      summary =
          "the webhook changes metadata other than labels and annotations; kube-apiserver "
          "silently reverts it, so whatever the conversion meant to record there is lost";
    std::vector<std::string> details = rejected;
    for (auto& r : reverted) details.push_back("silently reverted: " + r);
    return fail("metadata-immutable", summary, details, expected, got);
  }

  CheckResult targetVersion() const {
    if (auto why = perObjectUnavailable(); !why.empty()) return blocked("target-version", why);
    std::vector<std::string> wrong;
    json got = json::array();
    for (std::size_t i = 0; i < view.convertedObjects.size(); ++i) {
      const json& o = view.convertedObjects[i];
      json v = o.is_object() && o.contains("apiVersion") ? o["apiVersion"] : json(nullptr);
      if (v != json(ex.sent.desiredApiVersion)) {
        wrong.push_back(fmt::format("index {}: apiVersion {}", i, v.dump()));
        got.push_back(v);
      }
    }
    if (wrong.empty()) return pass("target-version");
    return fail("target-version",
                fmt::format("converted objects do not carry apiVersion {}; kube-apiserver rejects "
                            "the answer and reads at {} fail",
                            ex.sent.desiredApiVersion, ctx.to),
                wrong, json(ex.sent.desiredApiVersion), got);
  }

  CheckResult kind() const {
    if (auto why = perObjectUnavailable(); !why.empty()) return blocked("kind-unchanged", why);
    auto match = pairing();
    std::vector<std::string> wrong;
    for (std::size_t i = 0; i < match.size(); ++i) {
      const json& o = view.convertedObjects[i];
      json k = o.is_object() && o.contains("kind") ? o["kind"] : json(nullptr);
      if (k != ex.sent.objects[match[i]]["kind"])
        wrong.push_back(fmt::format("index {}: kind {}", i, k.dump()));
    }
    if (wrong.empty()) return pass("kind-unchanged");
    return fail("kind-unchanged",
                fmt::format("the webhook changes the kind (expected {}); kube-apiserver rejects "
                            "the answer",
                            ex.sent.kind),
                wrong, json(ex.sent.kind), nullptr);
  }

  CheckResult labels() const {
    if (ex.verdict.stage == ModelStage::Metadata)
      return fail("labels-annotations-valid",
                  "kube-apiserver rejects the labels or annotations the webhook returned, so the "
                  "object cannot be read at this version",
                  {ex.verdict.message});
    if (auto why = perObjectUnavailable(); !why.empty())
      return blocked("labels-annotations-valid", why);
    auto match = pairing();
    std::vector<std::string> problems;
    for (std::size_t i = 0; i < match.size(); ++i) {
      const json& back = view.convertedObjects[i];
      const json& sent = ex.sent.objects[match[i]];
      if (!back.is_object() || !back.contains("metadata") || !back["metadata"].is_object())
        continue;
      for (const char* field : {"labels", "annotations"}) {
        const json& meta = back["metadata"];
        if (!meta.contains(field) || meta[field].is_null()) continue;
        const json& map = meta[field];
        if (!map.is_object()) {
          problems.push_back(
              fmt::format("index {}: metadata.{} is a {}", i, field, map.type_name()));
          continue;
        }
        bool strings =
            std::all_of(map.begin(), map.end(), [](const json& v) { return v.is_string(); });
        if (!strings) {
          problems.push_back(fmt::format("index {}: metadata.{} has non-string values", i, field));
          continue;
        }
        json original = sent["metadata"].value(field, json::object());
        if (original == map) continue;
        auto errors =
            std::string(field) == "labels" ? validateLabels(map) : validateAnnotations(map);
        for (auto& e : errors) problems.push_back(fmt::format("index {}: {}", i, e));
      }
    }
    if (problems.empty()) return pass("labels-annotations-valid");
    return fail("labels-annotations-valid",
                "the webhook returns labels or annotations the API server does not accept; "
                "reads at this version fail",
                problems);
  }
};

}  // namespace

std::vector<CheckResult> checkExchange(const Exchange& exchange, const CaseContext& context) {
  // Beyond the number sent only the count matters: a hostile answer may hold millions.
  Checker c{exchange, context, viewResponse(exchange.http, exchange.sent.objects.size())};
  return {c.envelope(),      c.timeout(), c.uidEcho(),  c.count(), c.order(),
          c.targetVersion(), c.kind(),    c.metadata(), c.labels()};
}

}  // namespace convcheck
