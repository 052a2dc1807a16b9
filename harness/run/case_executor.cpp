#include "harness/run/case_executor.h"

#include <algorithm>

#include "properties/checks/determinism.h"
#include "properties/checks/exchange_checks.h"
#include "properties/checks/round_trip.h"
#include "properties/checks/stored_form.h"

namespace convcheck {

using nlohmann::json;

std::string versionOf(const json& object) {
  std::string apiVersion =
      object.is_object() && object.contains("apiVersion") && object["apiVersion"].is_string()
          ? object["apiVersion"].get<std::string>()
          : "";
  auto slash = apiVersion.rfind('/');
  return slash == std::string::npos ? apiVersion : apiVersion.substr(slash + 1);
}

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

Exchange CaseExecutor::send(const std::vector<json>& objects, const std::string& to,
                            std::mt19937_64& uids, CaseResult& result) {
  Exchange ex = converter_.convert(objects, to, uids);
  if (onCall_) onCall_(ex);
  result.exchanges.push_back(ex);
  return ex;
}

namespace {
CheckResult blocked(const char* property, std::string why) {
  return {property, Outcome::Blocked, std::nullopt, std::move(why)};
}
}  // namespace

CaseResult CaseExecutor::run(const std::vector<json>& batch, const std::string& from,
                             const std::string& to, std::uint64_t seed) {
  CaseResult result;
  result.backwardFrom = to;
  std::mt19937_64 uids(seed ^ 0x5eedull);
  if (halted_) return result;
  Exchange forward = send(batch, to, uids, result);
  CaseContext ctx{from, to, timeout_};
  result.forward = checkExchange(forward, ctx);
  if (!forward.verdict.accepted()) {
    result.composite = {blocked("round-trip", "the forward conversion was rejected"),
                        blocked("determinism", "the forward conversion was rejected")};
    return result;
  }
  if (wants_("round-trip") && !halted_) roundTrip(batch, forward, from, to, uids, result);
  if (wants_("determinism") && !halted_) {
    Exchange again = send(batch, to, uids, result);
    result.composite.push_back(again.verdict.accepted()
                                   ? checkDeterminism(forward, again, ctx)
                                   : blocked("determinism", "the repeated call was rejected"));
  }
  return result;
}

void CaseExecutor::roundTrip(const std::vector<json>& batch, const Exchange& forward,
                             const std::string& from, const std::string& to, std::mt19937_64& uids,
                             CaseResult& result) {
  std::vector<json> expected(batch.size()), returned(batch.size());
  std::vector<Exchange> exchanges{forward};
  std::vector<std::string> sources;
  for (const auto& o : batch)
    if (std::find(sources.begin(), sources.end(), versionOf(o)) == sources.end())
      sources.push_back(versionOf(o));
  for (const auto& source : sources) {
    std::vector<std::size_t> indices;
    std::vector<json> back;
    for (std::size_t i = 0; i < batch.size(); ++i)
      if (versionOf(batch[i]) == source) {
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
    }
  }
  result.composite.push_back(
      checkRoundTrip(expected, returned, std::move(exchanges), {from, to, timeout_}));
}

}  // namespace convcheck
