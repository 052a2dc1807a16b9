#include "kube/cel/program.h"

#include <map>
#include <set>

namespace convcheck::cel {

namespace {

// Names that evaluate to type values when no variable shadows them.
bool isTypeName(const std::string& n) {
  static const std::set<std::string> names = {"int",   "uint", "double", "bool",      "string",
                                              "bytes", "list", "map",    "null_type", "type"};
  return names.count(n) > 0;
}

// Binds identifiers to slots and calls to functions; the first problem found is the message.
class Binder {
 public:
  Binder(const std::vector<std::string>& variables, const FunctionTable& fns) : fns_(fns) {
    for (const auto& v : variables) scope_.push_back({v, next_++});
  }
  int slots() const { return maxSlots_; }

  std::string bind(Expr& e) {
    switch (e.op) {
      case Expr::Op::Ident: {
        for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
          if (it->first == e.name) {
            e.slot = it->second;
            return "";
          }
        if (isTypeName(e.name)) {
          e.op = Expr::Op::Literal;
          e.literal = Value::type(e.name);
          return "";
        }
        return "undeclared reference to '" + e.name + "' (in container '')";
      }
      case Expr::Op::Call: {
        if (e.name == "_&&_")
          e.special = 1;
        else if (e.name == "_||_")
          e.special = 2;
        else if (e.name == "_?_:_")
          e.special = 3;
        else {
          e.fn = fns_.find(e.name, e.member);
          if (!e.fn) return "undeclared reference to '" + e.name + "' (in container '')";
          if (auto m = precompile(e); !m.empty()) return m;
        }
        return bindArgs(e, 0, e.args.size());
      }
      case Expr::Op::Comprehension: {
        if (auto m = bind(*e.args[0]); !m.empty()) return m;
        e.slot = push(e.name);
        if (!e.name2.empty()) e.slot2 = push(e.name2);
        std::string m = bindArgs(e, 1, e.args.size());
        pop(e.name2.empty() ? 1 : 2);
        return m;
      }
      case Expr::Op::Bind:
      case Expr::Op::OptMap: {
        if (auto m = bind(*e.args[0]); !m.empty()) return m;
        e.slot = push(e.name);
        std::string m = bind(*e.args[1]);
        pop(1);
        return m;
      }
      default:
        return bindArgs(e, 0, e.args.size());
    }
  }

 private:
  std::string bindArgs(Expr& e, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i)
      if (auto m = bind(*e.args[i]); !m.empty()) return m;
    return "";
  }
  static std::string precompile(Expr& e) {
    const bool regex = e.name == "matches" || e.name == "find" || e.name == "findAll";
    if (!regex || e.args.size() < 2 || e.args[1]->op != Expr::Op::Literal ||
        e.args[1]->literal.kind() != Kind::String)
      return "";
    std::string error;
    e.precompiled = precompileRegex(e.args[1]->literal.str(), &error);
    return e.precompiled ? "" : error;
  }
  int push(const std::string& name) {
    scope_.push_back({name, next_});
    maxSlots_ = std::max(maxSlots_, next_ + 1);
    return next_++;
  }
  void pop(int n) {
    for (int i = 0; i < n; ++i) scope_.pop_back();
    next_ -= n;
  }

  const FunctionTable& fns_;
  std::vector<std::pair<std::string, int>> scope_;
  int next_ = 0;
  int maxSlots_ = 0;

 public:
  void countDeclared() { maxSlots_ = std::max(maxSlots_, next_); }
};

class Interpreter {
 public:
  Interpreter(std::vector<Value>& frame, EvalState& state) : frame_(frame), st_(state) {}

  Value eval(const Expr& e) {
    switch (e.op) {
      case Expr::Op::Literal:
        return e.literal;
      case Expr::Op::Ident:
        ++st_.cost;
        return frame_[static_cast<std::size_t>(e.slot)];
      case Expr::Op::Select:
        ++st_.cost;
        return select(eval(*e.args[0]), e.name, e.testOnly);
      case Expr::Op::OptionalSelect:
        ++st_.cost;
        return optionalSelect(eval(*e.args[0]), e.name);
      case Expr::Op::Call:
        return call(e);
      case Expr::Op::List:
        return list(e);
      case Expr::Op::MapLit:
        return mapLiteral(e);
      case Expr::Op::Comprehension:
        return comprehension(e);
      case Expr::Op::Bind:
        frame_[static_cast<std::size_t>(e.slot)] = eval(*e.args[0]);
        return eval(*e.args[1]);
      case Expr::Op::OptMap:
        return optMap(e);
    }
    return Value::error("unknown expression");
  }

 private:
  static Value select(const Value& o, const std::string& field, bool testOnly) {
    if (o.isError()) return o;
    if (o.kind() == Kind::Optional) {  // selection on an optional chains: none stays none
      if (!o.hasValue()) return testOnly ? Value::boolean(false) : o;
      if (testOnly) return select(o.optionalValue(), field, true);
      return optionalSelect(o.optionalValue(), field);
    }
    if (o.kind() != Kind::Map) {
      return Value::error(testOnly ? "invalid type for field selection."
                                   : "no such overload: field selection on " + typeNameOf(o));
    }
    auto v = o.asMap().field(field);
    if (testOnly) return Value::boolean(v.has_value());
    if (!v) return Value::error("no such key: " + field);
    return *v;
  }

  static Value optionalSelect(const Value& o, const std::string& field) {
    if (o.isError()) return o;
    if (o.kind() == Kind::Optional) {
      if (!o.hasValue()) return o;
      return optionalSelect(o.optionalValue(), field);
    }
    if (o.kind() != Kind::Map) return Value::error("no such overload: _?._");
    auto v = o.asMap().field(field);
    return v ? Value::optionalOf(*v) : Value::optionalNone();
  }

  Value call(const Expr& e) {
    ++st_.cost;
    switch (e.special) {
      case 1:
        return logical(e, false);
      case 2:
        return logical(e, true);
      case 3: {
        Value c = eval(*e.args[0]);
        if (c.isError()) return c;
        if (c.kind() != Kind::Bool) return Value::error("no such overload: _?_:_");
        return eval(*e.args[c.asBool() ? 1 : 2]);
      }
      default:
        break;
    }
    Value small[4];
    std::vector<Value> big;
    Value* args = small;
    if (e.args.size() > 4) {
      big.resize(e.args.size());
      args = big.data();
    }
    for (std::size_t i = 0; i < e.args.size(); ++i) args[i] = eval(*e.args[i]);
    if (st_.exceeded()) return Value::error(kCostLimitExceeded);
    st_.call = &e;
    return e.fn->fn(args, e.args.size(), st_);
  }

  // && (absorbing = false) and || (absorbing = true), commutative over errors: a decisive
  // operand wins over an error on the other side.
  Value logical(const Expr& e, bool absorbing) {
    Value l = eval(*e.args[0]);
    if (l.kind() == Kind::Bool && l.asBool() == absorbing) return l;
    Value r = eval(*e.args[1]);
    if (r.kind() == Kind::Bool && r.asBool() == absorbing) return r;
    if (l.kind() == Kind::Bool && r.kind() == Kind::Bool) return Value::boolean(!absorbing);
    if (l.isError()) return l;
    if (r.isError()) return r;
    return Value::error(absorbing ? "no such overload: _||_" : "no such overload: _&&_");
  }

  Value list(const Expr& e) {
    st_.cost += 10;
    std::vector<Value> items;
    items.reserve(e.args.size());
    for (std::size_t i = 0; i < e.args.size(); ++i) {
      Value v = eval(*e.args[i]);
      if (v.isError()) return v;
      if (e.optionalAt[i]) {
        if (v.kind() != Kind::Optional) return Value::error("no such overload: optional element");
        if (!v.hasValue()) continue;
        items.push_back(v.optionalValue());
      } else {
        items.push_back(std::move(v));
      }
    }
    return Value::list(std::move(items));
  }

  Value mapLiteral(const Expr& e) {
    st_.cost += 30;
    std::vector<std::pair<Value, Value>> entries;
    for (std::size_t i = 0; i + 1 < e.args.size(); i += 2) {
      Value k = eval(*e.args[i]);
      if (k.isError()) return k;
      if (k.kind() != Kind::String && k.kind() != Kind::Int && k.kind() != Kind::Uint &&
          k.kind() != Kind::Bool)
        return Value::error("unsupported key type");
      Value v = eval(*e.args[i + 1]);
      if (v.isError()) return v;
      if (e.optionalAt[i / 2]) {
        if (v.kind() != Kind::Optional) return Value::error("no such overload: optional entry");
        if (!v.hasValue()) continue;
        // A copy first: assigning v its own inner value releases the optional that holds it
        // (often the last owner) while the assignment still reads it.
        v = Value(v.optionalValue());
      }
      for (const auto& [ek, ev] : entries)
        if (equalValues(ek, k)) return Value::error("Failed with repeated key");
      entries.emplace_back(std::move(k), std::move(v));
    }
    return Value::map(std::make_shared<const VectorMap>(std::move(entries)));
  }

  Value optMap(const Expr& e) {
    Value o = eval(*e.args[0]);
    if (o.isError()) return o;
    if (o.kind() != Kind::Optional) return Value::error("no such overload: optMap");
    if (!o.hasValue()) return o;
    frame_[static_cast<std::size_t>(e.slot)] = o.optionalValue();
    Value r = eval(*e.args[1]);
    if (r.isError() || e.flat) return r;
    return Value::optionalOf(std::move(r));
  }

  Value comprehension(const Expr& e);

  std::vector<Value>& frame_;
  EvalState& st_;
};

Value Interpreter::comprehension(const Expr& e) {
  Value range = eval(*e.args[0]);
  if (range.isError()) return range;
  const bool isList = range.kind() == Kind::List;
  if (!isList && range.kind() != Kind::Map)
    return Value::error("expression of type '" + typeNameOf(range) +
                        "' cannot be range of a comprehension (must be list, map, or dynamic)");
  const std::size_t n = isList ? range.asList().size() : range.asMap().size();
  const bool twoVars = !e.name2.empty();
  const std::size_t s1 = static_cast<std::size_t>(e.slot);
  const std::size_t s2 = static_cast<std::size_t>(e.slot2);
  const Expr& body = *e.args[1];
  const Expr* transform = e.args.size() > 2 ? e.args[2].get() : nullptr;

  Value firstError;
  bool sawError = false;
  std::int64_t count = 0;
  std::vector<Value> out;
  std::vector<std::pair<Value, Value>> outMap;
  for (std::size_t i = 0; i < n; ++i) {
    st_.cost += 1;
    if (st_.exceeded()) return Value::error(kCostLimitExceeded);
    if (isList) {
      if (twoVars) {
        frame_[s1] = Value::integer(static_cast<std::int64_t>(i));
        frame_[s2] = range.asList().at(i);
      } else {
        frame_[s1] = range.asList().at(i);
      }
    } else {
      frame_[s1] = range.asMap().keyAt(i);
      if (twoVars) frame_[s2] = range.asMap().valueAt(i);
    }
    Value p = eval(body);
    switch (e.macro) {
      case Macro::All:
      case Macro::Exists: {
        const bool decisive = e.macro == Macro::Exists;
        if (p.kind() == Kind::Bool) {
          if (p.asBool() == decisive) return p;
        } else if (!sawError) {
          firstError = p.isError() ? p : Value::error("no such overload");
          sawError = true;
        }
        break;
      }
      case Macro::ExistsOne:
        if (p.isError()) return p;
        if (p.kind() != Kind::Bool) return Value::error("no such overload");
        if (p.asBool()) ++count;
        break;
      case Macro::Map:
      case Macro::TransformList:
      case Macro::TransformMap: {
        if (e.hasFilter) {
          if (p.isError()) return p;
          if (p.kind() != Kind::Bool) return Value::error("no such overload");
          if (!p.asBool()) break;
          p = eval(*transform);
        }
        if (p.isError()) return p;
        if (e.macro == Macro::TransformMap) {
          if (isList) return Value::error("transformMap requires a map");
          outMap.emplace_back(range.asMap().keyAt(i), std::move(p));
        } else {
          out.push_back(std::move(p));
        }
        break;
      }
      case Macro::Filter:
        if (p.isError()) return p;
        if (p.kind() != Kind::Bool) return Value::error("no such overload");
        if (p.asBool()) out.push_back(frame_[s1]);
        break;
    }
  }
  switch (e.macro) {
    case Macro::All:
    case Macro::Exists:
      return sawError ? firstError : Value::boolean(e.macro == Macro::All);
    case Macro::ExistsOne:
      return Value::boolean(count == 1);
    case Macro::TransformMap:
      return Value::map(std::make_shared<const VectorMap>(std::move(outMap)));
    default:
      return Value::list(std::move(out));
  }
}

}  // namespace

std::variant<Program, std::string> Program::compile(std::string_view source,
                                                    const std::vector<std::string>& variables,
                                                    const ParseOptions& options) {
  auto parsed = parse(source, options);
  if (auto* m = std::get_if<std::string>(&parsed)) return *m;
  auto st = std::make_shared<State>();
  st->source = std::string(source);
  st->root = std::move(std::get<ExprPtr>(parsed));
  Binder binder(variables, kubernetesFunctions());
  binder.countDeclared();
  if (auto m = binder.bind(*st->root); !m.empty()) return "ERROR: <input>: " + m;
  st->slots = binder.slots();
  return Program(std::move(st));
}

Value Program::evaluate(const std::vector<Value>& bindings, EvalState& state) const {
  std::vector<Value> frame(static_cast<std::size_t>(std::max<int>(state_->slots, 1)));
  for (std::size_t i = 0; i < bindings.size() && i < frame.size(); ++i) frame[i] = bindings[i];
  Interpreter in(frame, state);
  Value v = in.eval(*state_->root);
  if (state.exceeded()) return Value::error(kCostLimitExceeded);
  return v;
}

Value Program::evaluate(const std::vector<Value>& bindings) const {
  EvalState state;
  return evaluate(bindings, state);
}

}  // namespace convcheck::cel
