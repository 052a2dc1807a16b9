// Tells a webhook that takes "", 0 and false for absent (JavaScript's and Python's `if (value)`
// copies) by what it does: a shrunk case that loses a zero value is run once more with a non-zero
// value there. Used by the runner's shrink queue to fold such losses into one defect.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "properties/checks/finding.h"

namespace convcheck {

// What the witnessed problems of such a loss carry (engine/run/tally.h folds them into one), and
// of a loss the probe showed is not about zeros.
inline constexpr const char* kDropsZeroValues = "class|drops-zero-values";
inline constexpr const char* kLosesAnyValue = "class|loses-any-value";

// The probe's hooks: whether a changed batch still fails the way the shrunk case did, and whether
// an object is valid at its version.
struct ZeroValueProbe {
  std::function<bool(const std::vector<nlohmann::json>& batch)> stillFails;
  std::function<bool(const nlohmann::json& object)> valid;
};

// Whether `shrunk` (a round trip's finding with its case objects) loses zero values ("", 0,
// false) of an object of its case, and the same case with a non-zero value of the same type in
// each of those places (a valid object) no longer fails the same way.
// nullopt when there is nothing to probe (no zero value of a case object is lost, or the changed
// object is invalid).
std::optional<bool> losesOnlyZeroValues(const Finding& shrunk, const ZeroValueProbe& probe);

}  // namespace convcheck
