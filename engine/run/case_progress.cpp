#include "engine/run/case_progress.h"

#include <algorithm>

#include <fmt/format.h>

namespace convcheck {

namespace {

// Whether a property the run reports failed on the case (every property runs on each case;
// `selected` empty = all are reported).
bool anyFailed(const CaseResult& result, const std::vector<std::string>& selected) {
  auto reported = [&selected](const std::string& property) {
    return selected.empty() ||
           std::find(selected.begin(), selected.end(), property) != selected.end();
  };
  bool failed = false;
  for (const auto* part : {&result.forward, &result.backward, &result.composite})
    for (const CheckResult& check : *part)
      failed |= check.outcome == Outcome::Fail && reported(check.property);
  return failed;
}

}  // namespace

void CaseProgress::caseDone(const CaseResult& result, long long requests) {
  const bool failed = anyFailed(result, config_.properties);
  ++cases_;
  failing_ += failed ? 1 : 0;
  tell(config_.events, CaseDone{kind_, failed, requests});
}

void CaseProgress::storedCaseDone(const CaseResult& result, long long requests) {
  tell(config_.events, CaseDone{kind_, anyFailed(result, config_.properties), requests});
}

bool CaseProgress::limitReached() const {
  return config_.maxFailingCases > 0 && failing_ >= config_.maxFailingCases;
}

std::string CaseProgress::limitNote() const {
  return fmt::format(
      "stopped after {} failing case(s) (--max-failures): results cover the cases run so far",
      config_.maxFailingCases);
}

}  // namespace convcheck
