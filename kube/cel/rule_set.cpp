#include "kube/cel/rule_set.h"

#include <map>

#include "kube/cel/cost.h"
#include "kube/cel/json_view.h"

namespace convcheck::cel {

using nlohmann::json;

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\n\r") - b + 1);
}

bool mentions(const Expr& e, const std::string& name) {
  if (e.op == Expr::Op::Ident && e.name == name) return true;
  for (const auto& a : e.args)
    if (mentions(*a, name)) return true;
  return false;
}

struct Walker {
  std::vector<CompiledRule>& rules;
  std::vector<std::string>& problems;
  std::uint64_t& total;

  void walk(const CelSchema& node, const std::string& path, std::uint64_t cardinality,
            bool bounded) {
    for (std::size_t i = 0; i < node.rules.size(); ++i) add(node, path, i, cardinality, bounded);
    for (const auto& [name, child] : node.properties)
      walk(*child, path.empty() ? name : path + "." + name, cardinality, bounded);
    if (node.items) {
      const bool b = bounded && node.maxItems.has_value();
      walk(*node.items, path + "[*]", b ? saturatingMul(cardinality, maxElements(&node)) : 0, b);
    }
    if (node.additionalProperties) {
      const bool b = bounded && node.maxProperties.has_value();
      walk(*node.additionalProperties, path + "[*]",
           b ? saturatingMul(cardinality, maxElements(&node)) : 0, b);
    }
  }

  void add(const CelSchema& node, const std::string& path, std::size_t i, std::uint64_t cardinality,
           bool bounded) {
    CompiledRule r;
    r.schemaPath = path;
    r.index = i;
    r.spec = node.rules[i];
    r.node = &node;
    r.cardinality = bounded ? std::max<std::uint64_t>(cardinality, 1)
                            : maxCardinality(minSerializedSize(&node));
    const std::string where = (path.empty() ? "" : path + ".") + "x-kubernetes-validations[" +
                              std::to_string(i) + "].rule";
    auto compiled = Program::compile(r.spec.rule, {"self", "oldSelf"});
    if (auto* m = std::get_if<std::string>(&compiled)) {
      r.problem =
          where + ": Invalid value: " + "\"" + r.spec.rule + "\": compilation failed: " + *m;
      problems.push_back(r.problem);
      rules.push_back(std::move(r));
      return;
    }
    r.program = std::move(std::get<Program>(compiled));
    r.transition = mentions(r.program->ast(), "oldSelf");
    if (!r.spec.messageExpression.empty()) {
      auto m = Program::compile(r.spec.messageExpression, {"self", "oldSelf"});
      if (auto* p = std::get_if<Program>(&m)) r.messageProgram = std::move(*p);
    }
    r.estimatedCost = estimateMaxCost(r.program->ast(), &node);
    const std::uint64_t cost = saturatingMul(r.estimatedCost, r.cardinality);
    if (cost > kPerRuleCostLimit) {
      r.problem = where + ": Forbidden: " +
                  costErrorMessage("estimated rule cost", cost, kPerRuleCostLimit);
      problems.push_back(r.problem);
    }
    total = saturatingAdd(total, cost);
    rules.push_back(std::move(r));
  }
};

std::string fieldErrorText(const std::string& field, const std::string& type,
                           const std::string& reason, const std::string& detail) {
  if (reason == "FieldValueForbidden") return field + ": Forbidden: " + detail;
  if (reason == "FieldValueRequired") return field + ": Required value: " + detail;
  if (reason == "FieldValueDuplicate") return field + ": Duplicate value: \"" + type + "\"";
  return field + ": Invalid value: \"" + type + "\": " + detail;
}

std::string ruleErrorString(const RuleSpec& r) {
  return trim(r.message.empty() ? r.rule : r.message);
}

std::string childField(const std::string& path, const std::string& name) {
  return path.empty() ? name : path + "." + name;
}

struct Validation {
  const std::vector<CompiledRule>& rules;
  std::map<const CelSchema*, std::vector<const CompiledRule*>> byNode;
  std::vector<RuleViolation>& out;
  std::uint64_t budget = kRuntimeCostBudget;
  bool stopped = false;

  void node(const CelSchema& s, const json& v, const json* old, const std::string& path) {
    if (stopped || v.is_null()) return;
    if (auto it = byNode.find(&s); it != byNode.end())
      for (const CompiledRule* r : it->second) evaluate(*r, s, v, old, path);
    if (v.is_object()) {
      for (auto it = v.begin(); it != v.end(); ++it) {
        const CelSchema* child = s.property(it.key());
        if (!child) child = s.additionalProperties.get();
        if (!child) continue;
        const json* o = nullptr;
        if (old && old->is_object())
          if (auto oi = old->find(it.key()); oi != old->end()) o = &*oi;
        const bool mapKey = !s.property(it.key());
        node(*child, it.value(), o,
             mapKey ? path + "[" + it.key() + "]" : childField(path, it.key()));
      }
    } else if (v.is_array() && s.items) {
      for (std::size_t i = 0; i < v.size(); ++i)
        node(*s.items, v[i], correlated(s, v[i], old), path + "[" + std::to_string(i) + "]");
    }
  }

  // The old item of a map list with the same keys (other lists are not correlated).
  static const json* correlated(const CelSchema& s, const json& item, const json* old) {
    if (!old || !old->is_array() || s.listType != "map" || !item.is_object()) return nullptr;
    for (const auto& o : *old) {
      if (!o.is_object()) continue;
      bool same = true;
      for (const auto& k : s.listMapKeys) {
        auto a = item.find(k), b = o.find(k);
        if ((a == item.end()) != (b == o.end()) || (a != item.end() && *a != *b)) {
          same = false;
          break;
        }
      }
      if (same) return &o;
    }
    return nullptr;
  }

  void evaluate(const CompiledRule& r, const CelSchema& s, const json& v, const json* old,
                const std::string& path) {
    if (!r.program || !r.problem.empty() || stopped) return;
    if (r.transition && !old && !r.spec.optionalOldSelf) return;
    std::vector<Value> bindings{jsonValue(v, &s)};
    if (r.transition) {
      if (r.spec.optionalOldSelf)
        bindings.push_back(old ? Value::optionalOf(jsonValue(*old, &s)) : Value::optionalNone());
      else
        bindings.push_back(jsonValue(*old, &s));
    }
    EvalState st;
    st.limit = std::min(kPerCallRuntimeLimit, budget);
    Value result = r.program->evaluate(bindings, st);
    budget = st.cost >= budget ? 0 : budget - st.cost;
    const std::string type = s.type;
    const std::string field = path.empty() ? "<nil>" : path;
    RuleViolation violation;
    violation.rule = &r;
    violation.field = field;
    if (result.isError()) {
      violation.evaluationError = true;
      const std::string& err = result.str();
      std::string detail;
      if (err.rfind("no such overload", 0) == 0) {
        detail = "'" + err +
                 "': call arguments did not match a supported operator, function or "
                 "macro signature for rule: " +
                 ruleErrorString(r.spec);
      } else if (err == kCostLimitExceeded) {
        detail = "'" + err +
                 "': no further validation rules will be run due to call cost exceeds "
                 "limit for rule: " +
                 ruleErrorString(r.spec);
        stopped = true;
      } else {
        detail = err + " evaluating rule: " + ruleErrorString(r.spec);
      }
      violation.message = field + ": Invalid value: \"" + type + "\": " + detail;
      out.push_back(std::move(violation));
      return;
    }
    if (result.kind() == Kind::Bool && result.asBool()) return;
    std::string field2 = field;
    if (!r.spec.fieldPath.empty()) {
      std::string fp = r.spec.fieldPath;
      if (fp[0] == '.') fp = fp.substr(1);
      field2 = path.empty() ? fp : path + "." + fp;
    }
    std::string detail;
    if (r.messageProgram) {
      Value m = r.messageProgram->evaluate(bindings);
      if (m.kind() == Kind::String && !trim(m.str()).empty()) detail = m.str();
    }
    if (detail.empty())
      detail =
          r.spec.message.empty() ? "failed rule: " + ruleErrorString(r.spec) : trim(r.spec.message);
    violation.field = field2;
    violation.message = fieldErrorText(field2, type, r.spec.reason, detail);
    out.push_back(std::move(violation));
  }
};

}  // namespace

std::string CompiledRule::describe() const {
  return (schemaPath.empty() ? std::string("<root>") : schemaPath) + " x-kubernetes-validations[" +
         std::to_string(index) + "]: " + spec.rule;
}

RuleSet RuleSet::compile(const json& openAPIV3Schema) {
  auto st = std::make_shared<State>();
  st->schema = buildCelSchema(openAPIV3Schema);
  Walker w{st->rules, st->problems, st->totalCost};
  w.walk(*st->schema, "", 1, true);
  if (st->totalCost > kPerCrdCostLimit)
    st->problems.push_back(
        "^: Forbidden: " +
        costErrorMessage(
            "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
            st->totalCost, kPerCrdCostLimit));
  return RuleSet(st);
}

std::vector<RuleViolation> RuleSet::validate(const json& object, const json* old) const {
  std::vector<RuleViolation> out;
  if (state_->rules.empty()) return out;
  Validation v{state_->rules, {}, out};
  for (const auto& r : state_->rules) v.byNode[r.node].push_back(&r);
  v.node(*state_->schema, object, old, "");
  return out;
}

}  // namespace convcheck::cel
