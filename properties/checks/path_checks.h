// The judges of the properties that compare two ways of reaching the same result: transitivity
// (A->B->C = A->C), edit-round-trip and batch-independence, each defined in its own file.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/apiserver/shared_objects.h"
#include "properties/checks/check_result.h"
#include "properties/checks/exchange_checks.h"

namespace convcheck {

// The first differing paths of two objects ("spec.a, spec.b and 3 more"), for summaries.
std::string differingPaths(const nlohmann::json& a, const nlohmann::json& b);
// A failure of `property` comparing `expected` with `got`, for the case `ctx`.
CheckResult pathFailure(const char* property, const CaseContext& ctx, std::string summary,
                        std::string detail, nlohmann::json expected, nlohmann::json got,
                        SharedObjects batch, std::vector<ExchangeRef> exchanges);

// `direct` is from->to, `first` from->via, `second` via->to; all accepted.
CheckResult checkTransitivity(const ExchangeRef& direct, const ExchangeRef& first,
                              const ExchangeRef& second, const std::string& via,
                              const CaseContext& context);

// `edited` is B' in its stored form at `to`; `returned` what B'->from->to gave back.
CheckResult checkEditRoundTrip(const nlohmann::json& edited, const nlohmann::json& returned,
                               std::vector<ExchangeRef> exchanges, const CaseContext& context);

struct AloneConversion {
  std::size_t index;     // position in the batch
  ExchangeRef exchange;  // that object converted alone
};

// `batch` is the forward exchange; `alone` single-object conversions of some of its objects;
// `permuted` (may be null) the batch sent in the order `permutation` (permuted[k] = batch[p[k]]).
CheckResult checkBatchIndependence(const ExchangeRef& batch,
                                   const std::vector<AloneConversion>& alone,
                                   const ExchangeRef& permuted,
                                   const std::vector<std::size_t>& permutation,
                                   const CaseContext& context);

}  // namespace convcheck
