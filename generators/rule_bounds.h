// The integers a value-range rule allows: a rule that is a conjunction of comparisons of `self`
// with number literals (`0 < self && self <= 65535`, `self >= 1`, `self == 3`) as the interval of
// integers it holds for. Used by the validation-rule repair (validation_rules.cpp), which moves a
// number that violates such a rule into its range instead of redrawing the whole object.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

#include "kube/cel/ast.h"

namespace convcheck {

struct IntegerBounds {
  std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  std::int64_t hi = std::numeric_limits<std::int64_t>::max();
};

// The interval, or nothing when `rule` is not such a conjunction or allows no integer.
std::optional<IntegerBounds> selfIntegerBounds(const cel::Expr& rule);

}  // namespace convcheck
