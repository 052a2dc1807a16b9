// Kubernetes' lists library (isSorted, sum, min, max, indexOf, lastIndexOf) and cel-go's
// ext.Sets (sets.contains, sets.equivalent, sets.intersects).
#include "kube/cel/builtins.h"

namespace convcheck::cel {

namespace {

bool orderable(const Value& v) {
  switch (v.kind()) {
    case Kind::Int:
    case Kind::Uint:
    case Kind::Double:
    case Kind::String:
    case Kind::Bytes:
    case Kind::Bool:
    case Kind::Duration:
    case Kind::Timestamp:
      return true;
    default:
      return false;
  }
}

Value isSorted(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::List) return noSuchOverload("isSorted");
  const auto& l = a[0].asList();
  st.cost += l.size();
  for (std::size_t i = 1; i < l.size(); ++i) {
    const Value x = l.at(i - 1), y = l.at(i);
    if (!orderable(x) || x.kind() != y.kind()) return noSuchOverload("isSorted");
    auto c = compare(x, y);
    if (c && *c > 0) return Value::boolean(false);
  }
  return Value::boolean(true);
}

Value sum(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::List) return noSuchOverload("sum");
  const auto& l = a[0].asList();
  st.cost += l.size();
  if (l.size() == 0) return Value::integer(0);
  Value acc = l.at(0);
  FunctionTable const& fns = kubernetesFunctions();
  const Builtin* plus = fns.find("_+_", false);
  for (std::size_t i = 1; i < l.size(); ++i) {
    Value args[2] = {acc, l.at(i)};
    acc = plus->fn(args, 2, st);
    if (acc.isError()) return acc;
  }
  if (acc.kind() != Kind::Int && acc.kind() != Kind::Uint && acc.kind() != Kind::Double &&
      acc.kind() != Kind::Duration)
    return noSuchOverload("sum");
  return acc;
}

template <bool Max>
Value extreme(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::List) return noSuchOverload(Max ? "max" : "min");
  const auto& l = a[0].asList();
  st.cost += l.size();
  if (l.size() == 0)
    return Value::error(std::string(Max ? "max" : "min") + "(list) called on empty list");
  Value best = l.at(0);
  if (!orderable(best)) return noSuchOverload(Max ? "max" : "min");
  for (std::size_t i = 1; i < l.size(); ++i) {
    const Value v = l.at(i);
    auto c = compare(v, best);
    if (!c || v.kind() != best.kind()) return noSuchOverload(Max ? "max" : "min");
    if (Max ? *c > 0 : *c < 0) best = v;
  }
  return best;
}

template <bool Last>
Value listIndexOf(const Value* a, std::size_t n, EvalState& st) {
  if (n >= 1 && a[0].kind() == Kind::String) return stringIndexOf(a, n, st, Last);
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 2 || a[0].kind() != Kind::List) return noSuchOverload(Last ? "lastIndexOf" : "indexOf");
  const auto& l = a[0].asList();
  st.cost += l.size();
  if (Last) {
    for (std::size_t i = l.size(); i-- > 0;)
      if (equalValues(l.at(i), a[1])) return Value::integer(static_cast<std::int64_t>(i));
  } else {
    for (std::size_t i = 0; i < l.size(); ++i)
      if (equalValues(l.at(i), a[1])) return Value::integer(static_cast<std::int64_t>(i));
  }
  return Value::integer(-1);
}

bool listHas(const ListImpl& l, const Value& v) {
  for (std::size_t i = 0; i < l.size(); ++i)
    if (equalValues(l.at(i), v)) return true;
  return false;
}

Value setsContains(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 2 || !allOf(a, 2, Kind::List)) return noSuchOverload("sets.contains");
  st.cost += a[0].asList().size() * a[1].asList().size();
  for (std::size_t i = 0; i < a[1].asList().size(); ++i)
    if (!listHas(a[0].asList(), a[1].asList().at(i))) return Value::boolean(false);
  return Value::boolean(true);
}

Value setsEquivalent(const Value* a, std::size_t n, EvalState& st) {
  Value r = setsContains(a, n, st);
  if (r.isError() || !r.asBool()) return r;
  Value swapped[2] = {a[1], a[0]};
  return setsContains(swapped, 2, st);
}

Value setsIntersects(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 2 || !allOf(a, 2, Kind::List)) return noSuchOverload("sets.intersects");
  st.cost += a[0].asList().size() * a[1].asList().size();
  for (std::size_t i = 0; i < a[1].asList().size(); ++i)
    if (listHas(a[0].asList(), a[1].asList().at(i))) return Value::boolean(true);
  return Value::boolean(false);
}

}  // namespace

void addListsLibrary(FunctionTable& t) {
  t.member("isSorted", isSorted);
  t.member("sum", sum);
  t.member("min", extreme<false>);
  t.member("max", extreme<true>);
  t.member("indexOf", listIndexOf<false>);
  t.member("lastIndexOf", listIndexOf<true>);
  t.global("sets.contains", setsContains);
  t.global("sets.equivalent", setsEquivalent);
  t.global("sets.intersects", setsIntersects);
}

}  // namespace convcheck::cel
