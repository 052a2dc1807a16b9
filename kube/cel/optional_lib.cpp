// cel-go's optional types as Kubernetes enables them: optional.of, optional.none,
// optional.ofNonZeroValue, hasValue, value, or, orValue and the optional index x[?k]
// (the optional field selection x.?f is evaluated by the interpreter).
#include <cmath>

#include "kube/cel/builtins.h"

namespace convcheck::cel {

namespace {

bool isZero(const Value& v) {
  switch (v.kind()) {
    case Kind::Null:
      return true;
    case Kind::Bool:
      return !v.asBool();
    case Kind::Int:
      return v.asInt() == 0;
    case Kind::Uint:
      return v.asUint() == 0;
    case Kind::Double:
      return v.asDouble() == 0;
    case Kind::String:
    case Kind::Bytes:
      return v.str().empty();
    case Kind::List:
      return v.asList().size() == 0;
    case Kind::Map:
      return v.asMap().size() == 0;
    case Kind::Duration:
      return v.durationNanos() == 0;
    case Kind::Timestamp:
      return v.timestampSeconds() == 0 && v.timestampNanos() == 0;
    default:
      return false;
  }
}

Value of(const Value* a, std::size_t n, EvalState&) {
  if (const Value* e = firstError(a, n)) return *e;
  return Value::optionalOf(a[0]);
}
Value none(const Value*, std::size_t, EvalState&) { return Value::optionalNone(); }
Value ofNonZero(const Value* a, std::size_t n, EvalState&) {
  if (const Value* e = firstError(a, n)) return *e;
  return isZero(a[0]) ? Value::optionalNone() : Value::optionalOf(a[0]);
}
Value hasValue(const Value* a, std::size_t n, EvalState&) {
  if (const Value* e = firstError(a, n)) return *e;
  if (a[0].kind() != Kind::Optional) return noSuchOverload("hasValue");
  return Value::boolean(a[0].hasValue());
}
Value value(const Value* a, std::size_t n, EvalState&) {
  if (const Value* e = firstError(a, n)) return *e;
  if (a[0].kind() != Kind::Optional) return noSuchOverload("value");
  if (!a[0].hasValue()) return Value::error("optional.none() dereference");
  return a[0].optionalValue();
}
Value orFn(const Value* a, std::size_t n, EvalState&) {
  if (a[0].isError()) return a[0];
  if (a[0].kind() != Kind::Optional) return noSuchOverload("or");
  if (a[0].hasValue()) return a[0];
  if (a[1].kind() != Kind::Optional && !a[1].isError()) return noSuchOverload("or");
  (void)n;
  return a[1];
}
Value orValue(const Value* a, std::size_t n, EvalState&) {
  if (a[0].isError()) return a[0];
  if (a[0].kind() != Kind::Optional) return noSuchOverload("orValue");
  (void)n;
  return a[0].hasValue() ? a[0].optionalValue() : a[1];
}

Value optionalIndex(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  Value target = a[0];
  if (target.kind() == Kind::Optional) {
    if (!target.hasValue()) return target;
    // A copy first: assigning target its own inner value releases the optional that holds it.
    target = Value(target.optionalValue());
  }
  if (target.kind() == Kind::Map) {
    auto v = target.asMap().find(a[1]);
    return v ? Value::optionalOf(*v) : Value::optionalNone();
  }
  if (target.kind() == Kind::List) {
    std::int64_t i;
    if (a[1].kind() == Kind::Int)
      i = a[1].asInt();
    else if (a[1].kind() == Kind::Uint)
      i = static_cast<std::int64_t>(a[1].asUint());
    else if (a[1].kind() == Kind::Double && std::trunc(a[1].asDouble()) == a[1].asDouble())
      i = static_cast<std::int64_t>(a[1].asDouble());
    else
      return noSuchOverload("_[?_]");
    if (i < 0 || static_cast<std::size_t>(i) >= target.asList().size())
      return Value::optionalNone();
    return Value::optionalOf(target.asList().at(static_cast<std::size_t>(i)));
  }
  (void)st;
  return noSuchOverload("_[?_]");
}

}  // namespace

void addOptionalLibrary(FunctionTable& t) {
  t.global("optional.of", of);
  t.global("optional.none", none);
  t.global("optional.ofNonZeroValue", ofNonZero);
  t.member("hasValue", hasValue);
  t.member("value", value);
  t.member("or", orFn);
  t.member("orValue", orValue);
  t.global("_[?_]", optionalIndex);
}

}  // namespace convcheck::cel
