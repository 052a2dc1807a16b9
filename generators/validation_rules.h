// A version's x-kubernetes-validations in generation and validity: objects drawn until they
// satisfy every rule kube-apiserver would evaluate on create (repaired by moving a number into a
// value-range rule's range, dropping a member of the object a violation sits on, or dropping the
// optional field or list item a violation sits in, else redrawn), edits that satisfy the
// transition rules against the object they edit, and the count of objects each rule rejected
// for the run's notes.
// Used by ObjectGenerator (drawing, edits) and ValidityChecker (rule violations are violations).
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "generators/json_draw.h"
#include "generators/schema_check.h"
#include "generators/schema_model.h"
#include "kube/cel/rule_set.h"

namespace convcheck {

class ValidationRules {
 public:
  explicit ValidationRules(const nlohmann::json& openAPIV3Schema);

  bool empty() const { return rules_.empty(); }
  std::size_t size() const { return rules_.rules().size(); }
  const cel::RuleSet& ruleSet() const { return rules_; }

  // kube-apiserver's field errors for `object` (with `old`: an update, transition rules too),
  // as violations: path "spec.x" and message "Invalid value: \"object\": <rule's message>".
  std::vector<Violation> violations(const nlohmann::json& object,
                                    const nlohmann::json* old = nullptr) const;
  bool hold(const nlohmann::json& object, const nlohmann::json* old = nullptr) const;

  // Counts a drawn object against the rules it violated (before any redraw).
  void countDraw(const std::vector<cel::RuleViolation>& violated) const;
  // Counts an object that left the generator still violating `violated`.
  void countUnsatisfied(const std::vector<cel::RuleViolation>& violated) const;
  // One note per rule that is not evaluated because kube-apiserver would refuse it: known when
  // the rules compile.
  std::vector<std::string> refusedNotes() const;
  // One note per rule that objects could not be made to satisfy so far, with the share of drawn
  // objects it rejected.
  std::vector<std::string> notes() const;

 private:
  cel::RuleSet rules_;
  mutable std::atomic<std::uint64_t> drawn_{0};
  std::unique_ptr<std::atomic<std::uint64_t>[]> rejected_;     // per rule, first draws
  std::unique_ptr<std::atomic<std::uint64_t>[]> unsatisfied_;  // per rule, objects sent anyway
  std::size_t indexOf(const cel::CompiledRule* rule) const;
};

// `shape` drawn until its object satisfies `rules`: the first draw as it is (so a CRD without
// rules draws exactly what it drew before), else repaired (numbers moved into a value-range
// rule's range, optional parts dropped), else up to a few redraws of `shape` and then of
// `fallback` (a fuller shape, for rules a minimal object cannot meet); shrink trees keep only
// shrinks that satisfy the rules.
JsonDrawGen satisfyingRules(JsonDrawGen shape, JsonDrawGen fallback,
                            std::shared_ptr<const ValidationRules> rules, SchemaNodePtr root);

}  // namespace convcheck
