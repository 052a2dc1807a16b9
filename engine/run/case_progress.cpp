#include "engine/run/case_progress.h"

#include <fmt/format.h>

namespace convcheck {

void CaseProgress::caseDone(const CaseResult& result, long long requests) {
  bool failed = false;
  for (const auto* part : {&result.forward, &result.backward, &result.composite})
    for (const CheckResult& check : *part) failed |= check.outcome == Outcome::Fail;
  ++cases_;
  failing_ += failed ? 1 : 0;
  tell(config_.events, CaseDone{kind_, failed, requests});
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
