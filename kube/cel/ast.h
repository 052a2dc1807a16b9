// The parsed form of a CEL expression: literals, identifiers, selections, calls (operators are
// calls named as in cel-go: "_+_", "_[_]", "@in"), list and map literals, and expanded macros. Made
// by the parser; read by the interpreter and the cost estimator.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kube/cel/value.h"

namespace convcheck::cel {

struct Builtin;

// The comprehension macros, each evaluated by its own loop.
enum class Macro {
  All,            // e.all(x, p), e.all(k, v, p)
  Exists,         // e.exists(x, p), e.exists(k, v, p)
  ExistsOne,      // e.exists_one(x, p), e.existsOne(x, p), two-variable forms
  Map,            // e.map(x, t), e.map(x, p, t)
  Filter,         // e.filter(x, p)
  TransformList,  // e.transformList(i, v, [p,] t)
  TransformMap,   // e.transformMap(k, v, [p,] t)
};

struct Expr {
  enum class Op {
    Literal,
    Ident,
    Select,          // args[0].name; testOnly for has()
    OptionalSelect,  // args[0].?name
    Call,            // name(args…); member calls carry the receiver as args[0]
    List,            // [args…]; optionalAt marks [?x] elements
    MapLit,          // {args[0]: args[1], …}; optionalAt marks {?k: v} entries (by pair index)
    Comprehension,   // macro over args[0] with iterVar (and iterVar2); args[1] predicate or
                     // transform, args[2] transform when the macro has a filter
    Bind,            // cel.bind(name, args[0], args[1])
    OptMap,          // args[0].optMap(name, args[1]); flatMap when `flat`
  };

  Op op = Op::Literal;
  int position = 0;  // offset in the source, for messages
  Value literal;
  std::string name;   // identifier, field, function or (first) variable name
  std::string name2;  // second comprehension variable
  bool testOnly = false;
  bool member = false;  // receiver-style call
  bool flat = false;
  bool hasFilter = false;
  Macro macro = Macro::All;
  std::vector<bool> optionalAt;
  std::vector<std::unique_ptr<Expr>> args;
  const Builtin* fn = nullptr;  // resolved function of a Call, null for operators inlined
  int special = 0;              // 1 `&&`, 2 `||`, 3 `?:`: evaluated lazily by the interpreter
  int slot = -1;   // variable slot of an Ident, or of name (Comprehension, Bind, OptMap)
  int slot2 = -1;  // slot of name2
  std::shared_ptr<const void> precompiled;  // a literal regular expression, compiled once
};

using ExprPtr = std::unique_ptr<Expr>;

}  // namespace convcheck::cel
