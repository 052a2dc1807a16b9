// Which failure of a test case is being chased: the property, the part of the case it was seen
// in, its version pair, and how it failed, so a changed batch can be judged "fails the same way".
// Used by the shrinker, the runner's shrinking hook, replay and minimize.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kube/apiserver/group_version.h"
#include "properties/case_executor.h"
#include "properties/checks/check_result.h"

namespace convcheck {

enum class CasePart {
  Forward,    // on the case's first request (from -> to)
  Backward,   // on a request back to a source version (round-trip's second leg)
  Composite,  // judged on the whole case (round-trip, determinism, schema-valid, ...)
};

const char* casePartName(CasePart part);  // "forward", "backward", "composite"
std::optional<CasePart> casePartFromName(const std::string& name);

struct FailureTarget {
  std::string property;
  CasePart part = CasePart::Forward;
  std::string from;  // the reported pair: the case's from/to, or (case to, source) for Backward
  std::string to;
  std::string signature;   // failureSignature() of the original finding
  std::string cause = {};  // the Cause key chased (properties/checks/cause.h); empty: any cause
};

// How a finding failed, coarsely: the first API-server stage that is not "accepted" among its
// exchanges (with the transport error kind for transport failures), else "accepted". A smaller
// case only counts as the same failure when its signature is equal.
std::string failureSignature(const Finding& finding);

// The failing result of `result` for `target` (same property, part and pair), or nullptr.
// `sameWay` also requires an equal signature.
const CheckResult* locateFailure(const CaseResult& result, const FailureTarget& target,
                                 bool sameWay = true);
CheckResult* locateFailure(CaseResult& result, const FailureTarget& target, bool sameWay = true);

// Every (failing result, cause) of a case as a target, in the order forward, composite, backward.
// `caseFrom`/`caseTo` are the versions the case was run with.
std::vector<FailureTarget> failuresOf(const CaseResult& result, const std::string& caseFrom,
                                      const std::string& caseTo);

// Which properties a case must judge to re-check `target`: its property, and for failures on the
// way back the properties that convert back (their calls are the requests back to the sources).
bool caseNeeds(const FailureTarget& target, const std::string& property);

}  // namespace convcheck
