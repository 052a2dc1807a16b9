#include "harness/run/case_executor.h"

#include <algorithm>

#include "properties/checks/cause_analysis.h"
#include "properties/checks/determinism.h"
#include "properties/checks/exchange_checks.h"
#include "properties/checks/output_checks.h"
#include "properties/checks/path_checks.h"
#include "properties/checks/round_trip.h"
#include "properties/checks/stored_form.h"
#include "properties/structural_defaults.h"

namespace convcheck {

using nlohmann::json;

const CheckResult* CaseResult::find(const std::string& property) const {
  for (const auto* list : {&forward, &composite})
    for (const auto& r : *list)
      if (r.property == property) return &r;
  return nullptr;
}

CaseExecutor::CaseExecutor(const Crd& crd, Converter& converter, std::chrono::milliseconds timeout,
                           std::function<bool(const std::string&)> wants,
                           std::function<void(const Exchange&)> onCall)
    : crd_(crd),
      converter_(converter),
      timeout_(timeout),
      wants_(std::move(wants)),
      onCall_(std::move(onCall)) {}

json CaseExecutor::defaulted(json object) const {
  if (raw_) return object;
  if (const CrdVersion* v = crd_.version(objectVersion(object)))
    applyStructuralDefaults(object, v->schema);
  return object;
}

Exchange CaseExecutor::send(const std::vector<json>& objects, const std::string& to,
                            std::mt19937_64& uids, CaseResult& result) {
  std::vector<json> sent;
  sent.reserve(objects.size());
  for (const auto& o : objects) sent.push_back(defaulted(o));
  Exchange ex = converter_.convert(sent, to, uids);
  if (onCall_) onCall_(ex);
  result.exchanges.push_back(ex);
  return ex;
}

namespace {
CheckResult blocked(const char* property, std::string why) {
  return {property, Outcome::Blocked, std::nullopt, std::move(why)};
}
}  // namespace

CaseResult CaseExecutor::run(const std::vector<json>& input, const std::string& from,
                             const std::string& to, std::uint64_t seed) {
  CaseResult result = runChecks(input, from, to, seed);
  SchemaLookup schemaOf = [this](const std::string& version) -> const json* {
    const CrdVersion* v = crd_.version(version);
    return v ? &v->schema : nullptr;
  };
  for (auto* list : {&result.forward, &result.backward, &result.composite})
    for (auto& r : *list)
      if (r.outcome == Outcome::Fail && r.finding)
        r.finding->causes = causesOf(*r.finding, schemaOf);
  if (acks_) {
    for (auto* list : {&result.forward, &result.composite})
      for (auto& r : *list) acknowledge(r, from, to);
    for (std::size_t i = 0; i < result.backward.size() && i < result.backwardTo.size(); ++i)
      acknowledge(result.backward[i], result.backwardFrom, result.backwardTo[i]);
  }
  return result;
}

void CaseExecutor::acknowledge(CheckResult& r, const std::string& from,
                               const std::string& to) const {
  if (r.outcome != Outcome::Fail || !r.finding) return;
  std::vector<Cause> kept;
  for (auto& c : r.finding->causes) {
    const Acknowledgement* a =
        c.path.empty() ? nullptr : acks_->match(c.path, from, to, r.property);
    if (a)
      r.acknowledged.push_back({c, a->reason, a->where});
    else
      kept.push_back(c);
  }
  if (r.acknowledged.empty()) return;
  if (kept.empty()) {
    r.outcome = Outcome::Pass;
    r.finding.reset();
    return;
  }
  r.finding->causes = std::move(kept);
}

CaseResult CaseExecutor::runChecks(const std::vector<json>& input, const std::string& from,
                                   const std::string& to, std::uint64_t seed) {
  CaseResult result;
  std::vector<json> batch;  // as the API server would send it (what every check compares with)
  batch.reserve(input.size());
  for (const auto& o : input) batch.push_back(defaulted(o));
  result.backwardFrom = to;
  std::mt19937_64 uids(seed ^ 0x5eedull);
  if (halted_) return result;
  Exchange forward = send(batch, to, uids, result);
  CaseContext ctx{from, to, timeout_};
  result.forward = checkExchange(forward, ctx);
  TargetValidator validate;
  if (validate_)
    validate = [this, &to](const json& o) { return validate_(o, to); };
  else
    validate = [](const json&) { return std::vector<std::string>{}; };
  for (auto& r : checkOutput(forward, ctx, validate)) {
    if (!validate_ && r.property == "schema-valid") r = blocked("schema-valid", "no validator");
    result.composite.push_back(std::move(r));
  }
  if (!forward.verdict.accepted()) {
    for (const char* p :
         {"round-trip", "determinism", "transitivity", "edit-round-trip", "batch-independence"})
      result.composite.push_back(blocked(p, "the forward conversion was rejected"));
    return result;
  }
  if (wants_("round-trip") && !halted_) roundTrip(batch, forward, from, to, uids, result);
  if (wants_("determinism") && !halted_) {
    Exchange again = send(batch, to, uids, result);
    result.composite.push_back(again.verdict.accepted()
                                   ? checkDeterminism(forward, again, ctx)
                                   : blocked("determinism", "the repeated call was rejected"));
  }
  if (batch.size() == 1) {
    if (wants_("transitivity") && !halted_)
      transitivity(batch, forward, from, to, seed, uids, result);
    if (wants_("edit-round-trip") && !halted_) editRoundTrip(forward, from, to, seed, uids, result);
  } else if (wants_("batch-independence") && !halted_) {
    batchIndependence(batch, forward, from, to, seed, uids, result);
  }
  return result;
}

void CaseExecutor::transitivity(const std::vector<json>& batch, const Exchange& forward,
                                const std::string& from, const std::string& to, std::uint64_t seed,
                                std::mt19937_64& uids, CaseResult& result) {
  std::vector<std::string> vias;
  for (const auto& v : versions_)
    if (v != from && v != to) vias.push_back(v);
  if (vias.empty()) return;  // two versions: there is no third path
  const std::string& via = vias[seed % vias.size()];
  Exchange first = send(batch, via, uids, result);
  if (!first.verdict.accepted()) {
    result.composite.push_back(
        blocked("transitivity", "the conversion to " + via + " was rejected"));
    return;
  }
  Exchange second = send(first.verdict.visible, to, uids, result);
  if (!second.verdict.accepted()) {
    result.composite.push_back(
        blocked("transitivity", "the conversion from " + via + " was rejected"));
    return;
  }
  result.composite.push_back(checkTransitivity(forward, first, second, via, {from, to, timeout_}));
}

void CaseExecutor::editRoundTrip(const Exchange& forward, const std::string& from,
                                 const std::string& to, std::uint64_t seed, std::mt19937_64& uids,
                                 CaseResult& result) {
  std::optional<json> edited;
  if (edit_) edited = edit_(forward.verdict.visible.at(0), to, seed ^ 0xed17ull);
  if (edited) edited = defaulted(std::move(*edited));  // a client's write of B' is defaulted
  if (!edited) {
    result.composite.push_back(blocked("edit-round-trip", "no schema-valid edit was available"));
    return;
  }
  Exchange back = send({*edited}, from, uids, result);
  if (!back.verdict.accepted()) {
    result.composite.push_back(blocked("edit-round-trip", "converting the edit back was rejected"));
    return;
  }
  Exchange again = send(back.verdict.visible, to, uids, result);
  if (!again.verdict.accepted()) {
    result.composite.push_back(blocked("edit-round-trip", "reading the edit again was rejected"));
    return;
  }
  const CrdVersion* version = crd_.version(to);
  json expected = storedForm(*edited, version ? version->schema : json());
  result.composite.push_back(checkEditRoundTrip(expected, again.verdict.visible.at(0),
                                                {forward, back, again}, {from, to, timeout_}));
}

void CaseExecutor::batchIndependence(const std::vector<json>& batch, const Exchange& forward,
                                     const std::string& from, const std::string& to,
                                     std::uint64_t seed, std::mt19937_64& uids,
                                     CaseResult& result) {
  // A few objects alone (first, last, one in between) and the whole batch reordered.
  std::vector<std::size_t> picks = {0, batch.size() - 1};
  if (batch.size() > 2) picks.push_back(1 + seed % (batch.size() - 2));
  std::vector<AloneConversion> alone;
  for (std::size_t index : picks) {
    Exchange single = send({batch[index]}, to, uids, result);
    if (!single.verdict.accepted()) {
      result.composite.push_back(
          blocked("batch-independence", "converting an object alone was rejected"));
      return;
    }
    alone.push_back({index, std::move(single)});
  }
  std::vector<std::size_t> permutation(batch.size());
  for (std::size_t i = 0; i < permutation.size(); ++i) permutation[i] = i;
  std::mt19937_64 shuffle(seed ^ 0xba7cull);
  std::shuffle(permutation.begin(), permutation.end(), shuffle);
  std::vector<json> reordered;
  for (std::size_t k : permutation) reordered.push_back(batch[k]);
  Exchange permuted = send(reordered, to, uids, result);
  result.composite.push_back(
      checkBatchIndependence(forward, alone, permuted.verdict.accepted() ? &permuted : nullptr,
                             permutation, {from, to, timeout_}));
}

void CaseExecutor::roundTrip(const std::vector<json>& batch, const Exchange& forward,
                             const std::string& from, const std::string& to, std::mt19937_64& uids,
                             CaseResult& result) {
  std::vector<json> expected(batch.size()), returned(batch.size());
  std::vector<Exchange> exchanges{forward};
  std::vector<std::string> sources;
  for (const auto& o : batch)
    if (std::find(sources.begin(), sources.end(), objectVersion(o)) == sources.end())
      sources.push_back(objectVersion(o));
  for (const auto& source : sources) {
    std::vector<std::size_t> indices;
    std::vector<json> back;
    for (std::size_t i = 0; i < batch.size(); ++i)
      if (objectVersion(batch[i]) == source) {
        indices.push_back(i);
        back.push_back(forward.verdict.visible[i]);
      }
    Exchange backward = send(back, source, uids, result);
    auto checks = checkExchange(backward, {to, source, timeout_});
    result.backward.insert(result.backward.end(), checks.begin(), checks.end());
    result.backwardTo.insert(result.backwardTo.end(), checks.size(), source);
    exchanges.push_back(backward);
    if (!backward.verdict.accepted()) {
      result.composite.push_back(blocked("round-trip", "the backward conversion was rejected"));
      return;
    }
    const CrdVersion* version = crd_.version(source);
    json schema = version ? version->schema : json();
    for (std::size_t k = 0; k < indices.size(); ++k) {
      expected[indices[k]] = storedForm(batch[indices[k]], schema);
      returned[indices[k]] = backward.verdict.visible[k];
      // Written back through B into storage at A, the object is read with A's defaults: a
      // default the webhook dropped comes back, so the client sees no loss.
      if (version && version->storage && !raw_)
        applyStructuralDefaults(returned[indices[k]], schema);
    }
  }
  result.composite.push_back(
      checkRoundTrip(expected, returned, std::move(exchanges), {from, to, timeout_}));
}

}  // namespace convcheck
