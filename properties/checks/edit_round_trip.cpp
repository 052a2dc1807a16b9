// The edit-round-trip property: A->B, a schema-valid change of B, B'->A->B returns B'. Two calls
// of its own for single-object cases; listed in property_registry.cpp.
#include <algorithm>

#include <fmt/format.h>

#include "properties/checks/cause_analysis.h"
#include "properties/checks/json_diff.h"

#include "harness/plan/seed_salts.h"
#include "properties/checks/exchange_view.h"
#include "properties/checks/path_checks.h"
#include "properties/checks/property.h"
#include "properties/checks/round_trip.h"
#include "properties/checks/stored_form.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kEditRoundTripId[] = "edit-round-trip";

using nlohmann::json;

CheckResult checkEditRoundTrip(const json& edited, const json& returned,
                               std::vector<ExchangeRef> exchanges, const CaseContext& ctx) {
  if (edited == returned) return {kEditRoundTripId, Outcome::Pass, std::nullopt, ""};
  std::string loss = describeLoss(edited, returned, ctx.from);
  // A stale copy is one explanation; numbers that only came back rounded have another.
  const auto diff = jsonDiff(edited, returned);
  const bool onlyRounded = std::all_of(diff.begin(), diff.end(), [](const DiffLine& line) {
    return isFloat64Rounding(line.expected, line.got);
  });
  const char* why = onlyRounded
                        ? "(integers beyond 2^53 come back rounded: the webhook parses JSON "
                          "numbers as float64)"
                        : "(a stale copy, e.g. an annotation stash, wins over the edit)";
  return pathFailure(
      kEditRoundTripId, ctx,
      fmt::format("an edit made at {} does not survive a write through {}: {} {}", ctx.to, ctx.from,
                  loss.substr(loss.find("silently") + 9), why),
      fmt::format("{} -> {}, edit at {}, -> {} -> {}", ctx.from, ctx.to, ctx.to, ctx.from, ctx.to),
      edited, returned, SharedObjects::own(std::vector<nlohmann::json>{edited}),
      std::move(exchanges));
}

namespace {

void runEditRoundTrip(CaseCalls& c) {
  if (c.batch().size() != 1) return;
  const CaseContext& ctx = c.context();
  const Exchange& forward = *c.forward();
  std::optional<json> edited =
      c.edit(forward.verdict.visible.at(0), ctx.to, salted(c.seed(), SeedSalt::EditRoundTripEdit));
  if (edited) edited = c.defaulted(std::move(*edited));  // a client's write of B' is defaulted
  if (!edited) {
    c.record(notEvaluable(kEditRoundTripId, "no schema-valid edit was available"));
    return;
  }
  ExchangeRef back = c.send(std::vector<json>{*edited}, ctx.from);
  if (!back->verdict.accepted()) {
    c.record(notEvaluable(kEditRoundTripId, "converting the edit back was rejected"));
    return;
  }
  ExchangeRef again = c.send(visibleOf(back), ctx.to);
  if (!again->verdict.accepted()) {
    c.record(notEvaluable(kEditRoundTripId, "reading the edit again was rejected"));
    return;
  }
  const json* schema = c.schemaOf(ctx.to);
  json expected = storedForm(*edited, schema ? *schema : json());
  c.record(
      checkEditRoundTrip(expected, again->verdict.visible.at(0), {c.forward(), back, again}, ctx));
}

}  // namespace

const Property& editRoundTripProperty() {
  static const Property kProperty{.id = kEditRoundTripId,
                                  .holdsWhen =
                                      "A->B, a schema-valid change of B, then B'->A->B returns B' "
                                      "(catches stale annotation stashes)",
                                  .scope = PropertyScope::Case,
                                  .calls = "2 per single-object case (the edit B'->A, then A->B)",
                                  .drawsOwnContent = true,
                                  .runCase = &runEditRoundTrip};
  return kProperty;
}

}  // namespace convcheck
