#include "shrink/failure_target.h"

#include "properties/checks/property_registry.h"

namespace convcheck {

const char* casePartName(CasePart part) {
  switch (part) {
    case CasePart::Forward:
      return "forward";
    case CasePart::Backward:
      return "backward";
    case CasePart::Composite:
      return "composite";
  }
  return "forward";
}

std::optional<CasePart> casePartFromName(const std::string& name) {
  for (CasePart p : {CasePart::Forward, CasePart::Backward, CasePart::Composite})
    if (name == casePartName(p)) return p;
  return std::nullopt;
}

std::string failureSignature(const Finding& finding) {
  for (const auto& shared : finding.exchanges) {
    const Exchange& ex = *shared;
    if (ex.verdict.accepted()) continue;
    std::string stage = modelStageName(ex.verdict.stage);
    if (ex.verdict.stage == ModelStage::Transport)
      stage += std::string(":") + transportErrorKindName(ex.http.transportErrorKind);
    return stage;
  }
  return "accepted";
}

namespace {
bool matches(const CheckResult& r, const FailureTarget& target, bool sameWay) {
  if (r.property != target.property || r.outcome != Outcome::Fail) return false;
  if (!sameWay) return true;
  if (!r.finding || failureSignature(*r.finding) != target.signature) return false;
  if (target.cause.empty()) return true;
  for (const auto& c : r.finding->causes)
    if (c.key == target.cause) return true;
  return false;
}
}  // namespace

const CheckResult* locateFailure(const CaseResult& result, const FailureTarget& target,
                                 bool sameWay) {
  switch (target.part) {
    case CasePart::Forward:
      for (const auto& r : result.forward)
        if (matches(r, target, sameWay)) return &r;
      return nullptr;
    case CasePart::Composite:
      for (const auto& r : result.composite)
        if (matches(r, target, sameWay)) return &r;
      return nullptr;
    case CasePart::Backward:
      if (result.backwardFrom != target.from) return nullptr;
      for (std::size_t i = 0; i < result.backward.size() && i < result.backwardTo.size(); ++i)
        if (result.backwardTo[i] == target.to && matches(result.backward[i], target, sameWay))
          return &result.backward[i];
      return nullptr;
  }
  return nullptr;
}

CheckResult* locateFailure(CaseResult& result, const FailureTarget& target, bool sameWay) {
  return const_cast<CheckResult*>(
      locateFailure(static_cast<const CaseResult&>(result), target, sameWay));
}

std::vector<FailureTarget> failuresOf(const CaseResult& result, const std::string& caseFrom,
                                      const std::string& caseTo) {
  std::vector<FailureTarget> out;
  auto add = [&](const CheckResult& r, CasePart part, const std::string& from,
                 const std::string& to) {
    if (r.outcome != Outcome::Fail || !r.finding) return;
    const std::string signature = failureSignature(*r.finding);
    if (r.finding->causes.empty()) out.push_back({r.property, part, from, to, signature, ""});
    for (const auto& c : r.finding->causes)
      out.push_back({r.property, part, from, to, signature, c.key});
  };
  for (const auto& r : result.forward) add(r, CasePart::Forward, caseFrom, caseTo);
  for (const auto& r : result.composite) add(r, CasePart::Composite, caseFrom, caseTo);
  for (std::size_t i = 0; i < result.backward.size() && i < result.backwardTo.size(); ++i)
    add(result.backward[i], CasePart::Backward, result.backwardFrom, result.backwardTo[i]);
  return out;
}

bool caseNeeds(const FailureTarget& target, const std::string& property) {
  if (property == target.property) return true;
  const Property* p = findProperty(property);
  return target.part == CasePart::Backward && p != nullptr && p->convertsBack;
}

}  // namespace convcheck
