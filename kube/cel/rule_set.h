// The x-kubernetes-validations rules of one version's schema, compiled as apiextensions-apiserver
// compiles them (each rule's program, its estimated cost times its cardinality against the
// per-rule and per-CRD limits) and evaluated on objects as kube-apiserver's validator evaluates
// them (self, oldSelf for transition rules on correlated values, runtime cost limits, its
// messages). Used by the generators (objects that satisfy the rules), the schema-valid property
// and the kcp converter's checks.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/cel/program.h"
#include "kube/cel/schema.h"

namespace convcheck::cel {

struct CompiledRule {
  std::string schemaPath;  // where the rule is declared: "spec.rules[*]", "" for the root
  std::size_t index = 0;   // its position in that node's x-kubernetes-validations
  RuleSpec spec;
  const CelSchema* node = nullptr;
  std::optional<Program> program;  // absent when it does not compile
  std::optional<Program> messageProgram;
  bool transition = false;          // uses oldSelf
  std::uint64_t estimatedCost = 0;  // per evaluation
  std::uint64_t cardinality = 1;    // how often it may run per object
  std::string problem;              // why kube-apiserver would refuse it ("" when accepted)

  // "<schemaPath> x-kubernetes-validations[i]: <rule>" for reports.
  std::string describe() const;
};

// One failed rule on one object, as kube-apiserver reports it.
struct RuleViolation {
  const CompiledRule* rule = nullptr;
  std::string field;    // "spec.listeners[0]", "<nil>" at the root
  std::string message;  // the whole field error: "spec.x: Invalid value: \"object\": <detail>"
  bool evaluationError = false;  // the rule errored instead of returning false
};

class RuleSet {
 public:
  // Compiles every rule of `openAPIV3Schema`. Never fails as a whole: rules kube-apiserver would
  // refuse are kept with their problem (and not evaluated).
  static RuleSet compile(const nlohmann::json& openAPIV3Schema);

  const std::vector<CompiledRule>& rules() const { return state_->rules; }
  bool empty() const { return state_->rules.empty(); }
  // The problems kube-apiserver would report when the CRD is created (compile errors, costs
  // over the per-rule limit, the whole schema's cost over the per-CRD limit), in its words.
  const std::vector<std::string>& problems() const { return state_->problems; }
  std::uint64_t totalEstimatedCost() const { return state_->totalCost; }

  // Every violation of `object` (a whole custom resource); with `old`, the update's previous
  // object, transition rules are evaluated too (on values present in both).
  std::vector<RuleViolation> validate(const nlohmann::json& object,
                                      const nlohmann::json* old = nullptr) const;

 private:
  struct State {
    std::unique_ptr<CelSchema> schema;
    std::vector<CompiledRule> rules;
    std::vector<std::string> problems;
    std::uint64_t totalCost = 0;
  };
  explicit RuleSet(std::shared_ptr<const State> s) : state_(std::move(s)) {}
  std::shared_ptr<const State> state_;
};

}  // namespace convcheck::cel
