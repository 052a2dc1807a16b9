#include "shrink/case_shrinker.h"

#include <set>

#include "harness/plan/planned_batch.h"
#include "shrink/batch_reduce.h"
#include "shrink/object_size.h"
#include "shrink/schema_shrink.h"
#include "shrink/shrink_budget.h"
#include "shrink/tree_descent.h"

namespace convcheck {

using nlohmann::json;

namespace {

std::set<std::string> violationKeys(const std::vector<Violation>& violations) {
  std::set<std::string> out;
  for (const auto& v : violations) out.insert(v.path + "\n" + v.message);
  return out;
}

class CaseShrinker {
 public:
  CaseShrinker(const ShrinkCase& c, const FailureTarget& target, const CheckResult& original,
               const ShrinkSchemas& schemas, const CaseRunner& run, int budget)
      : case_(c),
        target_(target),
        schemas_(schemas),
        run_(run),
        budget_(budget),
        items_(c.items),
        result_(original) {
    // Objects that were already invalid (a user's object) may keep those violations, no more.
    for (const auto& item : items_)
      if (const ValidityChecker* checker = checkerFor(item.version))
        baseline_[item.slot] = violationKeys(checker->check(item.tree.value()));
    batch_ = assemble(items_);
  }

  ShrinkOutcome shrink() {
    const BatchSize before = measureBatch(batch_);
    const bool reproduced = confirm();
    if (reproduced) {
      reduceObjects();
      reduceVersions();
      trySkeletons();
      for (std::size_t i = 0; i < items_.size() && !stopped(); ++i) descendTree(i);
      for (std::size_t i = 0; i < items_.size() && !stopped(); ++i) editObject(i);
    }

    ShrinkOutcome out;
    out.batch = batch_;
    out.result = result_;
    const BatchSize after = measureBatch(batch_);
    ShrinkInfo& info = out.info;
    info.originalObjects = before.objects;
    info.originalFields = before.fields;
    info.originalBytes = before.bytes;
    info.shrunkObjects = after.objects;
    info.shrunkFields = after.fields;
    info.shrunkBytes = after.bytes;
    for (const auto& item : items_) {
      auto root = schemas_.roots.find(item.version);
      info.optionalFields += optionalFieldCount(
          item.tree.value(), root == schemas_.roots.end() ? nullptr : root->second.get());
    }
    info.calls = budget_.spent();
    info.steps = steps_;
    info.reproduced = reproduced;
    info.budgetExhausted = budget_.exhausted();
    return out;
  }

 private:
  bool stopped() const { return halted_ || budget_.exhausted(); }

  const ValidityChecker* checkerFor(const std::string& version) const {
    auto it = schemas_.checkers.find(version);
    return it == schemas_.checkers.end() ? nullptr : it->second;
  }

  const SchemaNode* rootFor(const std::string& version) const {
    auto it = schemas_.roots.find(version);
    return it == schemas_.roots.end() ? nullptr : it->second.get();
  }

  bool valid(const json& object, const std::string& version, std::size_t slot) const {
    const ValidityChecker* checker = checkerFor(version);
    if (!checker) return true;
    auto base = baseline_.find(slot);
    for (const auto& key : violationKeys(checker->check(object)))
      if (base == baseline_.end() || !base->second.count(key)) return false;
    return true;
  }

  std::vector<json> assemble(const std::vector<ShrinkItem>& items) const {
    std::vector<json> batch;
    std::vector<std::size_t> slots;
    for (const auto& item : items) {
      batch.push_back(item.tree.value());
      slots.push_back(item.slot);
    }
    return uniqueIdentities(std::move(batch), slots, case_.seed);
  }

  // The reported pair must stay the same: forward and composite failures keep an object of
  // `from` first; failures on the way back keep an object of that source version.
  bool admissible(const std::vector<ShrinkItem>& items) const {
    if (items.empty()) return false;
    for (const auto& item : items)
      if (item.version == case_.to) return false;
    if (target_.part == CasePart::Backward) {
      for (const auto& item : items)
        if (item.version == target_.to) return true;
      return false;
    }
    return items.front().version == target_.from;
  }

  // Runs the unchanged case once: a failure that does not come back (a flaky webhook) is
  // reported as found, without spending the budget on candidates that cannot fail.
  bool confirm() {
    if (stopped()) return false;
    CaseResult result = run_(batch_, objectVersion(batch_.front()));
    budget_.spend(result.calls());
    if (result.calls() == 0) halted_ = true;
    const CheckResult* failing = locateFailure(result, target_);
    if (!failing) return false;
    result_ = *failing;
    return true;
  }

  // Runs the candidate; keeps it when it fails the same way.
  bool tryItems(const std::vector<ShrinkItem>& candidate) {
    if (stopped() || !admissible(candidate)) return false;
    std::vector<json> batch = assemble(candidate);
    std::string key;
    for (const auto& o : batch)
      key += o.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    if (passed_.count(key)) return false;
    CaseResult result = run_(batch, objectVersion(batch.front()));
    budget_.spend(result.calls());
    if (result.calls() == 0) {
      halted_ = true;  // the run was stopped (circuit breaker)
      return false;
    }
    const CheckResult* failing = locateFailure(result, target_);
    if (!failing) {
      passed_.insert(std::move(key));
      return false;
    }
    items_ = candidate;
    batch_ = std::move(batch);
    result_ = *failing;
    ++steps_;
    return true;
  }

  void reduceObjects() {
    if (items_.size() <= 1) return;
    const std::vector<ShrinkItem> all = items_;
    auto select = [&all](const Subset& subset) {
      std::vector<ShrinkItem> out;
      for (std::size_t i : subset) out.push_back(all[i]);
      return out;
    };
    ReduceCallbacks cb;
    cb.admissible = [&](const Subset& s) { return admissible(select(s)); };
    cb.stillFails = [&](const Subset& s) { return tryItems(select(s)); };
    cb.stop = [this] { return stopped(); };
    // The object the failure names: alone, else after the first object (which keeps the pair).
    if (result_.finding && result_.finding->objectIndex && *result_.finding->objectIndex > 0 &&
        *result_.finding->objectIndex < all.size()) {
      const std::size_t named = *result_.finding->objectIndex;
      cb.firstTries = {{named}, {0, named}};
    }
    reduceBatch(all.size(), cb);  // tryItems keeps the last failing subset in items_
  }

  void reduceVersions() {
    if (!case_.regenerate || items_.size() <= 1) return;
    const std::string primary = target_.part == CasePart::Backward ? target_.to : target_.from;
    for (std::size_t i = 0; i < items_.size() && !stopped(); ++i) {
      if (items_[i].version == primary) continue;
      auto tree = case_.regenerate(items_[i].slot, primary);
      if (!tree || !valid(tree->value(), primary, items_[i].slot)) continue;
      std::vector<ShrinkItem> candidate = items_;
      candidate[i] = {primary, *tree, items_[i].slot};
      tryItems(candidate);
    }
  }

  // Most failures do not depend on the content: one call tries every object cut down to the
  // smallest valid object reachable by schema edits (found offline, validity only). When it
  // fails the same way, the search is over at the price of one call — which matters most for a
  // webhook that times out, where every call costs a whole timeout.
  void trySkeletons() {
    if (stopped()) return;
    std::vector<ShrinkItem> candidate = items_;
    bool changed = false;
    for (auto& item : candidate) {
      const std::string version = item.version;
      const std::size_t slot = item.slot;
      json skeleton = greedyShrink(
          item.tree.value(), rootFor(version),
          [&](const json& v) { return valid(v, version, slot); }, [] { return false; });
      if (skeleton == item.tree.value()) continue;
      item.tree = rc::shrinkable::just(std::move(skeleton));
      changed = true;
    }
    if (changed) tryItems(candidate);
  }

  void descendTree(std::size_t i) {
    const std::string version = items_[i].version;
    const std::size_t slot = items_[i].slot;
    // Only candidates with fewer fields or bytes are worth a webhook call; RapidCheck's
    // same-size simplifications ('z' -> 'a') make a counterexample no smaller.
    auto accept = [&](const rc::Shrinkable<json>& candidate) {
      const json value = candidate.value();
      const BatchSize before = measureBatch({items_[i].tree.value()});
      const BatchSize after = measureBatch({value});
      if (after.fields >= before.fields && after.bytes >= before.bytes) return false;
      if (!valid(value, version, slot)) return false;
      std::vector<ShrinkItem> next = items_;
      next[i].tree = candidate;
      return tryItems(next);
    };
    descendShrinkTree(items_[i].tree, accept, [this] { return stopped(); });
  }

  void editObject(std::size_t i) {
    const std::string version = items_[i].version;
    const std::size_t slot = items_[i].slot;
    auto accept = [&](const json& value) {
      if (!valid(value, version, slot)) return false;
      std::vector<ShrinkItem> next = items_;
      next[i].tree = rc::shrinkable::just(value);
      return tryItems(next);
    };
    greedyShrink(items_[i].tree.value(), rootFor(version), accept, [this] { return stopped(); });
  }

  const ShrinkCase& case_;
  const FailureTarget& target_;
  const ShrinkSchemas& schemas_;
  const CaseRunner& run_;
  ShrinkBudget budget_;
  std::vector<ShrinkItem> items_;
  std::vector<json> batch_;
  CheckResult result_;
  std::map<std::size_t, std::set<std::string>> baseline_;
  std::set<std::string> passed_;  // batches known not to fail the same way
  int steps_ = 0;
  bool halted_ = false;
};

}  // namespace

ShrinkOutcome shrinkFailure(const ShrinkCase& shrinkCase, const FailureTarget& target,
                            const CheckResult& original, const ShrinkSchemas& schemas,
                            const CaseRunner& run, int budget) {
  return CaseShrinker(shrinkCase, target, original, schemas, run, budget).shrink();
}

}  // namespace convcheck
