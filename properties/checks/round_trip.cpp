// The round-trip property: A->B->A returns A as a client sees it. One call of its own per source
// version of the batch (B->A), each judged like any answer; listed in property_registry.cpp.
#include "properties/checks/round_trip.h"

#include <algorithm>

#include <fmt/format.h>

#include "kube/apiserver/group_version.h"
#include "kube/apiserver/structural_defaults.h"
#include "properties/checks/exchange_view.h"
#include "properties/checks/json_diff.h"
#include "properties/checks/property.h"
#include "properties/checks/stored_form.h"

namespace convcheck {

// The id every result and finding of this property carries.
constexpr char kRoundTripId[] = "round-trip";

std::string describeLoss(const nlohmann::json& original, const nlohmann::json& returned,
                         const std::string& via) {
  auto diff = jsonDiff(original, returned);
  std::vector<std::string> deleted, changed, added;
  for (const auto& line : diff) {
    if (line.missing)
      deleted.push_back(line.path);
    else if (line.added)
      added.push_back(line.path);
    else
      changed.push_back(line.path);
  }
  auto list = [](const std::vector<std::string>& paths) {
    std::string s;
    for (std::size_t i = 0; i < paths.size() && i < 3; ++i) s += (i ? ", " : "") + paths[i];
    if (paths.size() > 3) s += fmt::format(" and {} more", paths.size() - 3);
    return s;
  };
  std::vector<std::string> parts;
  if (!deleted.empty()) parts.push_back("deletes " + list(deleted));
  if (!changed.empty()) parts.push_back("changes " + list(changed));
  if (!added.empty()) parts.push_back("adds " + list(added));
  std::string what;
  for (std::size_t i = 0; i < parts.size(); ++i) what += (i ? "; " : "") + parts[i];
  return fmt::format("a read-modify-write at {} silently {}", via, what);
}

CheckResult checkRoundTrip(std::size_t count,
                           const std::function<RoundTripObject(std::size_t)>& objectAt,
                           const std::function<std::vector<ExchangeRef>()>& exchanges,
                           const CaseContext& context, const SharedObjects& sent) {
  for (std::size_t i = 0; i < count; ++i) {
    RoundTripObject pair = objectAt(i);
    if (pair.original == pair.back()) continue;
    Finding f;
    f.property = kRoundTripId;
    f.from = context.from;
    f.to = context.to;
    f.summary = describeLoss(pair.original, pair.back(), context.to);
    f.details.push_back(fmt::format("object {} of the batch changed after {} -> {} -> back", i,
                                    context.from, context.to));
    // Most originals are their sent objects (stored forms differ only by unknown fields): the
    // batch as sent is then shared instead of held once more.
    bool asSent = sent.size() == count;
    for (std::size_t j = 0; j < count && asSent; ++j)
      asSent = (j == i ? pair.original : objectAt(j).original) == sent[j];
    if (asSent) {
      f.batch = sent;
    } else {
      std::vector<nlohmann::json> batch;
      for (std::size_t j = 0; j < count; ++j)
        batch.push_back(j == i ? pair.original : objectAt(j).original);
      f.batch = SharedObjects::own(std::move(batch));
    }
    f.objectIndex = i;
    f.expected = std::move(pair.original);
    f.got = pair.returnedIn ? *pair.returnedIn : std::move(pair.returned);
    if (exchanges) f.exchanges = exchanges();
    return {kRoundTripId, Outcome::Fail, std::move(f), ""};
  }
  return {kRoundTripId, Outcome::Pass, std::nullopt, ""};
}

CheckResult checkRoundTrip(const std::vector<nlohmann::json>& originals,
                           const std::vector<nlohmann::json>& returned,
                           const std::function<std::vector<ExchangeRef>()>& exchanges,
                           const CaseContext& context) {
  return checkRoundTrip(
      originals.size(),
      [&](std::size_t i) {
        return RoundTripObject{originals[i],
                               i < returned.size() ? returned[i] : nlohmann::json(nullptr)};
      },
      exchanges, context);
}

namespace {

void runRoundTrip(CaseCalls& c) {
  using nlohmann::json;
  const auto& batch = c.batch();
  const CaseContext& ctx = c.context();
  std::vector<ExchangeRef> backs;  // one per source version
  struct Back {
    std::size_t call = 0;  // index in backs
    std::size_t at = 0;    // index in that call's objects
  };
  std::vector<Back> backOf(batch.size());
  std::vector<std::string> sources;
  for (const auto& o : batch)
    if (std::find(sources.begin(), sources.end(), objectVersion(o)) == sources.end())
      sources.push_back(objectVersion(o));
  const SharedObjects visible = visibleOf(c.forward());
  for (const auto& source : sources) {
    std::vector<std::size_t> back;
    for (std::size_t i = 0; i < batch.size(); ++i)
      if (objectVersion(batch[i]) == source) {
        backOf[i] = {backs.size(), back.size()};
        back.push_back(i);
      }
    backs.push_back(c.send(visible.pick(back), source));
    c.judgeCall(backs.back(), ctx.to, source);
    if (!backs.back()->verdict.accepted()) {
      c.record(notEvaluable(kRoundTripId, "the backward conversion was rejected"));
      return;
    }
  }
  const json none;
  auto objectAt = [&](std::size_t i) {
    const std::string source = objectVersion(batch[i]);
    const json* found = c.schemaOf(source);
    const json& schema = found ? *found : none;  // the schema is large: not copied per case
    const json& back = backs[backOf[i].call]->verdict.visible[backOf[i].at];
    RoundTripObject pair{storedForm(batch[i], schema), nullptr, &back};
    // Written back through B into storage at A, the object is read with A's defaults: a
    // default the webhook dropped comes back, so the client sees no loss. Copied only then.
    if (found && c.isStorage(source) && !c.rawObjects() && needsStructuralDefaults(back, schema)) {
      pair.returned = back;
      pair.returnedIn = nullptr;
      applyStructuralDefaults(pair.returned, schema);
    }
    return pair;
  };
  c.record(checkRoundTrip(
      batch.size(), objectAt,
      [&] {
        std::vector<ExchangeRef> all{c.forward()};
        for (auto& b : backs) all.push_back(b);
        return all;
      },
      ctx, c.forward()->sent.objects));
}

}  // namespace

const Property& roundTripProperty() {
  static const Property kProperty{
      .id = kRoundTripId,
      .holdsWhen =
          "A->B->A returns A for every ordered version pair, as a client "
          "sees it after the API-server model",
      .scope = PropertyScope::Case,
      .calls = "1 per source version in the batch (B->A)",
      .convertsBack = true,
      .runCase = &runRoundTrip};
  return kProperty;
}

}  // namespace convcheck
