// The static cost estimate apiextensions-apiserver computes before it accepts a rule: the worst
// case of an expression over values as large as the schema allows (maxLength, maxItems,
// maxProperties; else as many as fit a 3 MiB request), times how often the rule can run (its
// cardinality). Follows cel-go's cost model; used by RuleSet when it compiles a CRD's rules.
#pragma once

#include <cstdint>
#include <string>

#include "kube/cel/ast.h"
#include "kube/cel/schema.h"

namespace convcheck::cel {

inline constexpr std::uint64_t kMaxRequestSizeBytes = 3 * 1024 * 1024;
inline constexpr std::uint64_t kPerRuleCostLimit = 10000000;    // StaticEstimatedCostLimit
inline constexpr std::uint64_t kPerCrdCostLimit = 100000000;    // StaticEstimatedCRDCostLimit
inline constexpr std::uint64_t kPerCallRuntimeLimit = 1000000;  // PerCallLimit
inline constexpr std::uint64_t kRuntimeCostBudget = 10000000;   // RuntimeCELCostBudget

// The maximal cost of one evaluation of `expr` with `self` typed by `selfSchema`.
std::uint64_t estimateMaxCost(const Expr& expr, const CelSchema* selfSchema);

// The smallest JSON encoding of a value of `schema` (MinSerializedSize).
std::uint64_t minSerializedSize(const CelSchema* schema);
// How many items (maxItems) or entries (maxProperties) a list or map of `schema` may hold.
std::uint64_t maxElements(const CelSchema* schema);
// The unbounded cardinality estimate: how many values of `minSize` bytes fit one request.
inline std::uint64_t maxCardinality(std::uint64_t minSize) {
  return kMaxRequestSizeBytes / (minSize + 1);
}

// apiextensions-apiserver's message for a cost over its limit: "<what> exceeds budget by factor
// of 1.5x (try simplifying the rule(s), or adding maxItems, maxProperties, and maxLength where
// arrays, maps, and strings are declared)".
std::string costErrorMessage(const std::string& what, std::uint64_t cost, std::uint64_t limit);

// a * b, saturating.
inline std::uint64_t saturatingMul(std::uint64_t a, std::uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > UINT64_MAX / b ? UINT64_MAX : a * b;
}
inline std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

}  // namespace convcheck::cel
