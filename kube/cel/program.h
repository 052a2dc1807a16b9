// A compiled CEL expression: parsed, its identifiers bound to variable slots and its functions to
// the Kubernetes function table, ready to evaluate many times (thread-safe: evaluation only reads).
// Used by the validation rules (rule_set.h), the kcp converter and the tests.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "kube/cel/ast.h"
#include "kube/cel/builtins.h"
#include "kube/cel/parser.h"

namespace convcheck::cel {

class Program {
 public:
  // `variables` are the names the expression may use (e.g. self, oldSelf); their values are
  // passed to evaluate() in the same order. Errors are cel-go's: syntax errors with their
  // position, "undeclared reference to 'x' (in container '')".
  static std::variant<Program, std::string> compile(std::string_view source,
                                                    const std::vector<std::string>& variables,
                                                    const ParseOptions& options = {});

  // The value, or an error value (no such key, overflow, cost limit exceeded, …).
  Value evaluate(const std::vector<Value>& bindings, EvalState& state) const;
  Value evaluate(const std::vector<Value>& bindings) const;

  const Expr& ast() const { return *state_->root; }
  const std::string& source() const { return state_->source; }

 private:
  struct State {
    std::string source;
    ExprPtr root;
    int slots = 0;
  };
  explicit Program(std::shared_ptr<const State> s) : state_(std::move(s)) {}
  std::shared_ptr<const State> state_;
};

// The message kube-apiserver gives when evaluation runs over its cost limit.
inline constexpr const char* kCostLimitExceeded = "operation cancelled: actual cost limit exceeded";

}  // namespace convcheck::cel
