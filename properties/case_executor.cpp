#include "properties/case_executor.h"

#include <algorithm>

#include "harness/plan/seed_salts.h"
#include "kube/apiserver/structural_defaults.h"
#include "properties/checks/cause_analysis.h"
#include "properties/checks/exchange_checks.h"
#include "properties/checks/exchange_view.h"
#include "properties/checks/output_checks.h"
#include "properties/checks/property_registry.h"

namespace convcheck {

using nlohmann::json;

const CheckResult* CaseResult::find(const std::string& property) const {
  for (const auto* list : {&forward, &composite})
    for (const auto& r : *list)
      if (r.property == property) return &r;
  return nullptr;
}

CaseExecutor::CaseExecutor(const Crd& crd, Converter& converter, CaseSettings settings)
    : crd_(crd), converter_(converter), s_(std::move(settings)) {}

json CaseExecutor::defaulted(json object) const {
  if (s_.rawObjects) return object;
  if (const CrdVersion* v = crd_.version(objectVersion(object)))
    applyStructuralDefaults(object, v->schema);
  return object;
}

SharedObjects CaseExecutor::defaulted(SharedObjects objects) const {
  if (s_.rawObjects) return objects;
  auto needs = [this](const json& o) {
    const CrdVersion* v = crd_.version(objectVersion(o));
    return v && needsStructuralDefaults(o, v->schema);
  };
  if (std::none_of(objects.begin(), objects.end(), needs)) return objects;
  std::vector<json> copy = objects.copy();
  objects = SharedObjects();
  for (auto& o : copy) o = defaulted(std::move(o));
  return SharedObjects::own(std::move(copy));
}

ExchangeRef CaseExecutor::send(SharedObjects objects, const std::string& to, std::mt19937_64& uids,
                               CaseResult& result, EncodedObjects& texts, BatchCut cut) {
  ExchangeRef ex = share(converter_.convert(std::move(objects), to, uids, cut, &texts));
  texts.keeping = false;  // the forward call's batch only: later calls send it again
  if (s_.onCall) s_.onCall(*ex);
  if (result.callCount++ == 0) result.forwardCall = ex;
  result.objectsSent += static_cast<std::int64_t>(ex->sent.objects.size());
  result.bytesSent += static_cast<std::int64_t>(ex->requestBytes);
  return ex;
}

CaseResult CaseExecutor::run(std::vector<json> input, const std::string& from,
                             const std::string& to, std::uint64_t seed, BatchCut cut) {
  CaseResult result = runChecks(std::move(input), from, to, seed, cut);
  if (s_.acks) {
    for (auto* list : {&result.forward, &result.composite})
      for (auto& r : *list) acknowledge(r, from, to);
    for (std::size_t i = 0; i < result.backward.size() && i < result.backwardTo.size(); ++i)
      acknowledge(result.backward[i], result.backwardFrom, result.backwardTo[i]);
  }
  return result;
}

void CaseExecutor::settle(CheckResult& r, const std::string& from, const std::string& to) const {
  if (r.outcome != Outcome::Fail || !r.finding) return;
  SchemaLookup schemaOf = [this](const std::string& version) -> const json* {
    const CrdVersion* v = crd_.version(version);
    return v ? &v->schema : nullptr;
  };
  Finding& f = *r.finding;
  f.causes = causesOf(f, schemaOf);
  if (!s_.knownCauses || f.causes.empty() || !s_.knownCauses(r.property, from, to, f.causes))
    return;
  f.exchanges.clear();
  f.batch = SharedObjects();
  f.expected = nullptr;
  f.got = nullptr;
}

void CaseExecutor::acknowledge(CheckResult& r, const std::string& from,
                               const std::string& to) const {
  if (r.outcome != Outcome::Fail || !r.finding) return;
  r.acknowledged = s_.acks->acknowledge(r.finding->causes, from, to, r.property);
  if (r.acknowledged.empty() || !r.finding->causes.empty()) return;
  r.outcome = Outcome::Pass;
  r.finding.reset();
}

// A case as the Case-scope properties see it: its batch and forward exchange, further calls
// through the executor (counted, kept in the result) and the kind's helpers.
class CaseScope : public CaseCalls {
 public:
  CaseScope(CaseExecutor& executor, const SharedObjects& batch, const ExchangeRef& forward,
            const CaseContext& context, std::uint64_t seed, std::mt19937_64& uids,
            CaseResult& result, EncodedObjects& texts)
      : x_(executor),
        batch_(batch),
        forward_(forward),
        context_(context),
        seed_(seed),
        uids_(uids),
        result_(result),
        texts_(texts) {}

  const SharedObjects& batch() const override { return batch_; }
  const ExchangeRef& forward() const override { return forward_; }
  const CaseContext& context() const override { return context_; }
  std::uint64_t seed() const override { return seed_; }
  using CaseCalls::send;
  ExchangeRef send(SharedObjects objects, const std::string& to) override {
    return x_.send(x_.defaulted(std::move(objects)), to, uids_, result_, texts_);
  }
  void judgeCall(const ExchangeRef& exchange, const std::string& from,
                 const std::string& to) override {
    auto checks = checkExchange(exchange, {from, to, x_.s_.timeout});
    for (auto& r : checks) x_.settle(r, result_.backwardFrom, to);
    result_.backward.insert(result_.backward.end(), checks.begin(), checks.end());
    result_.backwardTo.insert(result_.backwardTo.end(), checks.size(), to);
  }
  void record(CheckResult r) override {
    x_.settle(r, context_.from, context_.to);
    result_.composite.push_back(std::move(r));
  }
  const std::vector<std::string>& versions() const override { return x_.s_.versions; }
  std::optional<json> edit(const json& object, const std::string& version,
                           std::uint64_t seed) const override {
    if (!x_.s_.edit) return std::nullopt;
    return x_.s_.edit(object, version, seed);
  }
  const json* schemaOf(const std::string& version) const override {
    const CrdVersion* v = x_.crd_.version(version);
    return v ? &v->schema : nullptr;
  }
  bool isStorage(const std::string& version) const override {
    const CrdVersion* v = x_.crd_.version(version);
    return v && v->storage;
  }
  json defaulted(json object) const override { return x_.defaulted(std::move(object)); }
  bool rawObjects() const override { return x_.s_.rawObjects; }

 private:
  CaseExecutor& x_;
  const SharedObjects& batch_;
  const ExchangeRef& forward_;
  const CaseContext& context_;
  std::uint64_t seed_;
  std::mt19937_64& uids_;
  CaseResult& result_;
  EncodedObjects& texts_;
};

CaseResult CaseExecutor::runChecks(std::vector<json> input, const std::string& from,
                                   const std::string& to, std::uint64_t seed, BatchCut cut) {
  CaseResult result;
  result.backwardFrom = to;
  std::mt19937_64 uids(salted(seed, SeedSalt::CaseRequestUids));
  if (halted_) return result;
  // The batch as the API server sends it (defaulted), which every check compares with, is the
  // forward call's: held once, by the exchange.
  for (auto& o : input) o = defaulted(std::move(o));
  // The batch's objects as the forward call encodes them, for the calls that send them again.
  EncodedObjects texts;
  ExchangeRef forward = send(SharedObjects::own(std::move(input)), to, uids, result, texts, cut);
  const SharedObjects& batch = forward->sent.objects;
  CaseContext ctx{from, to, s_.timeout, [this](const std::string& version) -> const json* {
                    const CrdVersion* v = crd_.version(version);
                    return v ? &v->schema : nullptr;
                  }};
  result.forward = checkExchange(forward, ctx);
  for (auto& r : result.forward) settle(r, from, to);
  TargetValidator validate;
  if (s_.validate) validate = [this, &to](const json& o) { return s_.validate(o, to); };
  for (auto& r : checkOutput(forward, ctx, validate)) {
    settle(r, from, to);
    result.composite.push_back(std::move(r));
  }
  for (const auto& property : propertyRegistry()) {
    if (property.scope != PropertyScope::Case) continue;
    if (!forward->verdict.accepted()) {
      result.composite.push_back(
          notEvaluable(property.id.data(), "the forward conversion was rejected"));
      continue;
    }
    if (!wants(std::string(property.id)) || halted_) continue;
    CaseScope scope(*this, batch, forward, ctx, seed, uids, result, texts);
    property.runCase(scope);
  }
  return result;
}

}  // namespace convcheck
