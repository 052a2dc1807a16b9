#include "generators/rule_bounds.h"

#include <cmath>
#include <string>

namespace convcheck {

namespace {

using cel::Expr;
using cel::Kind;

constexpr double kTwoTo63 = 9223372036854775808.0;  // 2^63, as a double holds it

bool isSelf(const Expr& e) { return e.op == Expr::Op::Ident && e.name == "self"; }

std::optional<double> numberLiteral(const Expr& e) {
  if (e.op != Expr::Op::Literal) return std::nullopt;
  switch (e.literal.kind()) {
    case Kind::Int:
      return static_cast<double>(e.literal.asInt());
    case Kind::Uint:
      return static_cast<double>(e.literal.asUint());
    case Kind::Double:
      return e.literal.asDouble();
    default:
      return std::nullopt;
  }
}

// `n` as an int64 bound, clamped to the type's range.
std::int64_t clamp(double n) {
  if (n >= kTwoTo63) return std::numeric_limits<std::int64_t>::max();
  if (n <= -kTwoTo63) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(n);
}

// Narrows `b` by one comparison `self <op> n` (the operator as written with self on the left).
void narrow(IntegerBounds& b, const std::string& op, double n) {
  if (op == "_<_") b.hi = std::min(b.hi, clamp(std::ceil(n) - 1));
  if (op == "_<=_") b.hi = std::min(b.hi, clamp(std::floor(n)));
  if (op == "_>_") b.lo = std::max(b.lo, clamp(std::floor(n) + 1));
  if (op == "_>=_") b.lo = std::max(b.lo, clamp(std::ceil(n)));
  if (op == "_==_") {
    b.lo = std::max(b.lo, clamp(std::ceil(n)));
    b.hi = std::min(b.hi, clamp(std::floor(n)));
  }
}

// The same comparison with its operands swapped: `n < self` is `self > n`.
std::string mirrored(const std::string& op) {
  if (op == "_<_") return "_>_";
  if (op == "_<=_") return "_>=_";
  if (op == "_>_") return "_<_";
  if (op == "_>=_") return "_<=_";
  return op;
}

bool collect(const Expr& e, IntegerBounds& b) {
  if (e.op != Expr::Op::Call || e.args.size() != 2) return false;
  if (e.name == "_&&_") return collect(*e.args[0], b) && collect(*e.args[1], b);
  const bool comparison = e.name == "_<_" || e.name == "_<=_" || e.name == "_>_" ||
                          e.name == "_>=_" || e.name == "_==_";
  if (!comparison) return false;
  if (isSelf(*e.args[0]))
    if (auto n = numberLiteral(*e.args[1])) {
      narrow(b, e.name, *n);
      return true;
    }
  if (isSelf(*e.args[1]))
    if (auto n = numberLiteral(*e.args[0])) {
      narrow(b, mirrored(e.name), *n);
      return true;
    }
  return false;
}

}  // namespace

std::optional<IntegerBounds> selfIntegerBounds(const cel::Expr& rule) {
  IntegerBounds b;
  if (!collect(rule, b) || b.lo > b.hi) return std::nullopt;
  return b;
}

}  // namespace convcheck
