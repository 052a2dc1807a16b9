// The outcome of one property on one test case: held, failed (with a Finding) or not evaluable.
// Returned by every check in properties/checks; tallied by the runner.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "properties/checks/finding.h"

namespace convcheck {

enum class Outcome { Pass, Fail, Blocked };

struct CheckResult {
  std::string property;
  Outcome outcome = Outcome::Pass;
  std::optional<Finding> finding;  // set when outcome == Fail
  std::string blockedBy;           // when Blocked: why the property could not be judged
  // Causes acknowledged by the config file; a result whose every cause is acknowledged passes.
  std::vector<AcknowledgedCause> acknowledged = {};
};

}  // namespace convcheck
