// Kubernetes' quantity library: quantity(), isQuantity(), sign, isInteger, asInteger,
// asApproximateFloat, add, sub, compareTo, isGreaterThan, isLessThan. A quantity is held exactly
// in units of 10^-9 (finer digits are rounded away from zero, as resource.Quantity rounds up).
#include <cstring>

#include "kube/cel/builtins.h"

namespace convcheck::cel {

namespace {

using I128 = __int128;

constexpr I128 kNano = 1000000000;
constexpr I128 kMax = (static_cast<I128>(1) << 125);

class QuantityValue final : public OpaqueImpl {
 public:
  explicit QuantityValue(I128 n) : nanos(n) {}
  const char* typeName() const override { return "kubernetes.Quantity"; }
  bool equals(const OpaqueImpl& o) const override {
    return static_cast<const QuantityValue&>(o).nanos == nanos;
  }
  I128 nanos;
};

bool mulChecked(I128& v, I128 by) {
  if (v != 0 && (by > kMax / (v < 0 ? -v : v))) return false;
  v *= by;
  return true;
}

// resource.ParseQuantity's grammar: <sign><digits>[.<digits>]<suffix>.
std::optional<I128> parseQuantity(const std::string& s) {
  std::size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  std::string intPart, fracPart;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) intPart += s[i++];
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) fracPart += s[i++];
  }
  if (intPart.empty() && fracPart.empty()) return std::nullopt;
  const std::string suffix = s.substr(i);
  int base = 10, exp = 0;
  static const std::pair<const char*, int> decimal[] = {{"n", -9}, {"u", -6}, {"m", -3}, {"", 0},
                                                        {"k", 3},  {"M", 6},  {"G", 9},  {"T", 12},
                                                        {"P", 15}, {"E", 18}};
  static const std::pair<const char*, int> binary[] = {{"Ki", 10}, {"Mi", 20}, {"Gi", 30},
                                                       {"Ti", 40}, {"Pi", 50}, {"Ei", 60}};
  bool known = false;
  for (const auto& [name, e] : decimal)
    if (suffix == name) {
      exp = e;
      known = true;
    }
  for (const auto& [name, e] : binary)
    if (suffix == name) {
      base = 2;
      exp = e;
      known = true;
    }
  if (!known && suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    std::size_t j = 1;
    bool eneg = false;
    if (suffix[j] == '+' || suffix[j] == '-') eneg = suffix[j++] == '-';
    if (j < suffix.size() && suffix.find_first_not_of("0123456789", j) == std::string::npos &&
        suffix.size() - j <= 4) {
      exp = std::stoi(suffix.substr(j)) * (eneg ? -1 : 1);
      known = true;
    }
  }
  if (!known) return std::nullopt;
  // Digits as an integer with a decimal exponent, then scaled to nano units.
  std::string digits = intPart + fracPart;
  int decExp = -static_cast<int>(fracPart.size()) + 9;  // to nano units
  if (base == 10) decExp += exp;
  I128 v = 0;
  bool roundUp = false;
  // Digits beyond the unit digit once scaled are dropped (and round the magnitude up).
  const int keep = static_cast<int>(digits.size()) + std::min(decExp, 0);
  for (int k = 0; k < static_cast<int>(digits.size()); ++k) {
    if (k >= keep) {
      roundUp = roundUp || digits[static_cast<std::size_t>(k)] != '0';
      continue;
    }
    if (!mulChecked(v, 10)) return std::nullopt;
    v += digits[static_cast<std::size_t>(k)] - '0';
  }
  for (int k = 0; k < decExp; ++k)
    if (!mulChecked(v, 10)) return std::nullopt;
  if (base == 2) {
    for (int k = 0; k < exp; ++k)
      if (!mulChecked(v, 2)) return std::nullopt;
  }
  if (roundUp) ++v;
  return neg ? -v : v;
}

const QuantityValue* quantityOf(const Value& v) {
  if (v.kind() != Kind::Opaque || std::strcmp(v.asOpaque().typeName(), "kubernetes.Quantity") != 0)
    return nullptr;
  return static_cast<const QuantityValue*>(&v.asOpaque());
}

Value make(I128 n) { return Value::opaque(std::make_shared<const QuantityValue>(n)); }

Value quantity(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("quantity");
  st.cost += traversalCost(a[0].str().size());
  auto q = parseQuantity(a[0].str());
  if (!q)
    return Value::error(
        "quantities must match the regular expression "
        "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  return make(*q);
}

Value isQuantity(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("isQuantity");
  st.cost += traversalCost(a[0].str().size());
  return Value::boolean(parseQuantity(a[0].str()).has_value());
}

template <int Op>
Value unary(const Value* a, std::size_t n, EvalState&) {
  if (const Value* e = firstError(a, n)) return *e;
  const QuantityValue* q = n == 1 ? quantityOf(a[0]) : nullptr;
  if (!q) return noSuchOverload("quantity accessor");
  const I128 v = q->nanos;
  switch (Op) {
    case 0:
      return Value::integer(v > 0 ? 1 : (v < 0 ? -1 : 0));
    case 1:
      return Value::boolean(v % kNano == 0 && v / kNano <= INT64_MAX && v / kNano >= INT64_MIN);
    case 2:
      if (v % kNano != 0 || v / kNano > INT64_MAX || v / kNano < INT64_MIN)
        return Value::error("cannot convert value to integer");
      return Value::integer(static_cast<std::int64_t>(v / kNano));
    default:
      return Value::dbl(static_cast<double>(v) / 1e9);
  }
}

template <int Op>
Value binary(const Value* a, std::size_t n, EvalState&) {
  if (const Value* e = firstError(a, n)) return *e;
  const QuantityValue* q = n == 2 ? quantityOf(a[0]) : nullptr;
  if (!q) return noSuchOverload("quantity operation");
  I128 other;
  if (const QuantityValue* o = quantityOf(a[1])) {
    other = o->nanos;
  } else if ((Op == 0 || Op == 1) && a[1].kind() == Kind::Int) {
    other = static_cast<I128>(a[1].asInt()) * kNano;
  } else {
    return noSuchOverload("quantity operation");
  }
  switch (Op) {
    case 0:
      return make(q->nanos + other);
    case 1:
      return make(q->nanos - other);
    case 2:
      return Value::integer(q->nanos < other ? -1 : (q->nanos > other ? 1 : 0));
    case 3:
      return Value::boolean(q->nanos > other);
    default:
      return Value::boolean(q->nanos < other);
  }
}

}  // namespace

void addQuantityLibrary(FunctionTable& t) {
  t.global("quantity", quantity);
  t.global("isQuantity", isQuantity);
  t.member("sign", unary<0>);
  t.member("isInteger", unary<1>);
  t.member("asInteger", unary<2>);
  t.member("asApproximateFloat", unary<3>);
  t.member("add", binary<0>);
  t.member("sub", binary<1>);
  t.member("compareTo", binary<2>);
  t.member("isGreaterThan", binary<3>);
  t.member("isLessThan", binary<4>);
}

}  // namespace convcheck::cel
