// The batch-independence property: a batch converts as each object alone and in any order. For
// batches of two or more, 3-4 calls of its own; listed in property_registry.cpp.
#include <algorithm>
#include <random>

#include <fmt/format.h>

#include "harness/plan/seed_salts.h"
#include "properties/checks/exchange_view.h"
#include "properties/checks/path_checks.h"
#include "properties/checks/property.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kBatchIndependenceId[] = "batch-independence";

using nlohmann::json;

CheckResult checkBatchIndependence(const ExchangeRef& batch,
                                   const std::vector<AloneConversion>& alone,
                                   const ExchangeRef& permuted,
                                   const std::vector<std::size_t>& permutation,
                                   const CaseContext& ctx) {
  const auto& together = batch->verdict.visible;
  for (const auto& single : alone) {
    const json& a = together.at(single.index);
    const json& b = single.exchange->verdict.visible.at(0);
    if (a == b) continue;
    return pathFailure(
        kBatchIndependenceId, ctx,
        fmt::format("object {} converts differently in a batch of {} than alone ({}); the API "
                    "server's answer then depends on which other objects a LIST or watch "
                    "happened to carry",
                    single.index, together.size(), differingPaths(b, a)),
        fmt::format("object {}: alone (expected) vs in the batch (got)", single.index), b, a,
        batch->sent.objects, {batch, single.exchange});
  }
  if (permuted) {
    const auto& shuffled = permuted->verdict.visible;
    for (std::size_t k = 0; k < shuffled.size() && k < permutation.size(); ++k) {
      const json& a = together.at(permutation[k]);
      if (a == shuffled[k]) continue;
      return pathFailure(
          kBatchIndependenceId, ctx,
          fmt::format("object {} converts differently when the batch is reordered ({})",
                      permutation[k], differingPaths(a, shuffled[k])),
          fmt::format("object {}: original order (expected) vs position {} of the reordered "
                      "batch (got)",
                      permutation[k], k),
          a, shuffled[k], batch->sent.objects, {batch, permuted});
    }
  }
  return {kBatchIndependenceId, Outcome::Pass, std::nullopt, ""};
}

namespace {

void runBatchIndependence(CaseCalls& c) {
  const auto& batch = c.batch();
  if (batch.size() < 2) return;
  const CaseContext& ctx = c.context();
  // A few objects alone (first, last, one in between) and the whole batch reordered.
  std::vector<std::size_t> picks = {0, batch.size() - 1};
  if (batch.size() > 2) picks.push_back(1 + c.seed() % (batch.size() - 2));
  std::vector<AloneConversion> alone;
  for (std::size_t index : picks) {
    ExchangeRef single = c.send(batch.pick({index}), ctx.to);
    if (!single->verdict.accepted()) {
      c.record(notEvaluable(kBatchIndependenceId, "converting an object alone was rejected"));
      return;
    }
    alone.push_back({index, std::move(single)});
  }
  std::vector<std::size_t> permutation(batch.size());
  for (std::size_t i = 0; i < permutation.size(); ++i) permutation[i] = i;
  std::mt19937_64 shuffle(salted(c.seed(), SeedSalt::BatchPermutation));
  std::shuffle(permutation.begin(), permutation.end(), shuffle);
  ExchangeRef permuted = c.send(batch.pick(permutation), ctx.to);
  c.record(checkBatchIndependence(
      c.forward(), alone, permuted->verdict.accepted() ? permuted : nullptr, permutation, ctx));
}

}  // namespace

const Property& batchIndependenceProperty() {
  static const Property kProperty{
      .id = kBatchIndependenceId,
      .holdsWhen =
          "a batch converts as each object alone, and a reordered batch gives the same objects",
      .scope = PropertyScope::Case,
      .calls =
          "3-4 per case of two or more objects (first, last and one other alone; the batch "
          "reordered)",
      .runCase = &runBatchIndependence};
  return kProperty;
}

}  // namespace convcheck
