#include "properties/checks/path_checks.h"

#include <fmt/format.h>

#include "properties/checks/json_diff.h"
#include "properties/checks/round_trip.h"

namespace convcheck {
namespace {

using nlohmann::json;

std::string paths(const json& a, const json& b) {
  std::string out;
  auto diff = jsonDiff(a, b);
  for (std::size_t k = 0; k < diff.size() && k < 3; ++k)
    out += (k ? ", " : "") + (diff[k].path.empty() ? std::string("(root)") : diff[k].path);
  if (diff.size() > 3) out += fmt::format(" and {} more", diff.size() - 3);
  return out;
}

CheckResult failWith(const char* property, const CaseContext& ctx, std::string summary,
                     std::string detail, json expected, json got, std::vector<json> batch,
                     std::vector<Exchange> exchanges) {
  Finding f;
  f.property = property;
  f.from = ctx.from;
  f.to = ctx.to;
  f.summary = std::move(summary);
  f.details = {std::move(detail)};
  f.expected = std::move(expected);
  f.got = std::move(got);
  f.batch = std::move(batch);
  f.exchanges = std::move(exchanges);
  return {property, Outcome::Fail, std::move(f), ""};
}

}  // namespace

CheckResult checkTransitivity(const Exchange& direct, const Exchange& first, const Exchange& second,
                              const std::string& via, const CaseContext& ctx) {
  const auto& a = direct.verdict.visible;
  const auto& b = second.verdict.visible;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) continue;
    return failWith(
        "transitivity", ctx,
        fmt::format("converting {} -> {} directly differs from going through {} ({}); which one "
                    "a client sees depends on the storage version and on which version the "
                    "object was last written in",
                    ctx.from, ctx.to, via, paths(a[i], b[i])),
        fmt::format("object {}: {} -> {} vs {} -> {} -> {}", i, ctx.from, ctx.to, ctx.from, via,
                    ctx.to),
        a[i], b[i], direct.sent.objects, {direct, first, second});
  }
  return {"transitivity", Outcome::Pass, std::nullopt, ""};
}

CheckResult checkEditRoundTrip(const json& edited, const json& returned,
                               std::vector<Exchange> exchanges, const CaseContext& ctx) {
  if (edited == returned) return {"edit-round-trip", Outcome::Pass, std::nullopt, ""};
  std::string loss = describeLoss(edited, returned, ctx.from);
  return failWith(
      "edit-round-trip", ctx,
      fmt::format("an edit made at {} does not survive a write through {}: {} "
                  "(a stale copy, e.g. an annotation stash, wins over the edit)",
                  ctx.to, ctx.from, loss.substr(loss.find("silently") + 9)),
      fmt::format("{} -> {}, edit at {}, -> {} -> {}", ctx.from, ctx.to, ctx.to, ctx.from, ctx.to),
      edited, returned, {edited}, std::move(exchanges));
}

CheckResult checkBatchIndependence(const Exchange& batch, const std::vector<AloneConversion>& alone,
                                   const Exchange* permuted,
                                   const std::vector<std::size_t>& permutation,
                                   const CaseContext& ctx) {
  const auto& together = batch.verdict.visible;
  for (const auto& single : alone) {
    const json& a = together.at(single.index);
    const json& b = single.exchange.verdict.visible.at(0);
    if (a == b) continue;
    return failWith(
        "batch-independence", ctx,
        fmt::format("object {} converts differently in a batch of {} than alone ({}); the API "
                    "server's answer then depends on which other objects a LIST or watch "
                    "happened to carry",
                    single.index, together.size(), paths(b, a)),
        fmt::format("object {}: alone (expected) vs in the batch (got)", single.index), b, a,
        batch.sent.objects, {batch, single.exchange});
  }
  if (permuted) {
    const auto& shuffled = permuted->verdict.visible;
    for (std::size_t k = 0; k < shuffled.size() && k < permutation.size(); ++k) {
      const json& a = together.at(permutation[k]);
      if (a == shuffled[k]) continue;
      return failWith(
          "batch-independence", ctx,
          fmt::format("object {} converts differently when the batch is reordered ({})",
                      permutation[k], paths(a, shuffled[k])),
          fmt::format("object {}: original order (expected) vs position {} of the reordered "
                      "batch (got)",
                      permutation[k], k),
          a, shuffled[k], batch.sent.objects, {batch, *permuted});
    }
  }
  return {"batch-independence", Outcome::Pass, std::nullopt, ""};
}

}  // namespace convcheck
