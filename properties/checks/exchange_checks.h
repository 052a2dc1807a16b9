// Properties judged on a single ConversionReview exchange: envelope, uid, count, order, version,
// kind, metadata, labels/annotations and timeout. Called by the runner for every exchange it makes.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "properties/checks/check_result.h"

namespace convcheck {

struct CaseContext {
  std::string from;  // source version of the case (first object's version for mixed batches)
  std::string to;    // target version
  std::chrono::milliseconds timeout{30000};
};

// One CheckResult for each of: response-envelope, timeout, uid-echo, object-count, order,
// target-version, kind-unchanged, metadata-immutable, labels-annotations-valid.
std::vector<CheckResult> checkExchange(const Exchange& exchange, const CaseContext& context);

}  // namespace convcheck
