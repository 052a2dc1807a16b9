// cel-spec's standard definitions: operators, size, string tests, conversions, time accessors.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "kube/cel/builtins.h"
#include "kube/cel/time_text.h"
#include "kube/go/duration.h"
#include "kube/go/utf8.h"

namespace convcheck::cel {

namespace {

using I64 = std::int64_t;
using U64 = std::uint64_t;

Value overflow() { return Value::error("return error for overflow"); }

#define STRICT(name)                                    \
  if (const Value* err = firstError(a, n)) return *err; \
  (void)st;                                             \
  static const char* const kFn = name

Value timestampValue(I64 s, std::int32_t ns) {
  if (s < kMinTimestampSeconds || s > kMaxTimestampSeconds)
    return Value::error("timestamp out of range");
  return Value::timestamp(s, ns);
}

// --- arithmetic ---

Value add(const Value* a, std::size_t n, EvalState& st) {
  STRICT("_+_");
  const Value &x = a[0], &y = a[1];
  if (x.kind() == Kind::Int && y.kind() == Kind::Int) {
    I64 r;
    if (__builtin_add_overflow(x.asInt(), y.asInt(), &r)) return overflow();
    return Value::integer(r);
  }
  if (x.kind() == Kind::Uint && y.kind() == Kind::Uint) {
    U64 r;
    if (__builtin_add_overflow(x.asUint(), y.asUint(), &r)) return overflow();
    return Value::uinteger(r);
  }
  if (x.kind() == Kind::Double && y.kind() == Kind::Double)
    return Value::dbl(x.asDouble() + y.asDouble());
  if (x.kind() == Kind::String && y.kind() == Kind::String) {
    st.cost += traversalCost(x.str().size() + y.str().size());
    return Value::string(x.str() + y.str());
  }
  if (x.kind() == Kind::Bytes && y.kind() == Kind::Bytes) return Value::bytes(x.str() + y.str());
  if (x.kind() == Kind::List && y.kind() == Kind::List) {
    std::vector<Value> items;
    items.reserve(x.asList().size() + y.asList().size());
    for (std::size_t i = 0; i < x.asList().size(); ++i) items.push_back(x.asList().at(i));
    for (std::size_t i = 0; i < y.asList().size(); ++i) items.push_back(y.asList().at(i));
    return Value::list(std::move(items));
  }
  if (x.kind() == Kind::Duration && y.kind() == Kind::Duration) {
    I64 r;
    if (__builtin_add_overflow(x.durationNanos(), y.durationNanos(), &r)) return overflow();
    return Value::duration(r);
  }
  auto tsPlus = [](const Value& t, I64 nanos) {
    I64 ns = t.timestampNanos() + nanos % 1000000000;
    I64 s = t.timestampSeconds() + nanos / 1000000000;
    if (ns < 0) {
      ns += 1000000000;
      --s;
    } else if (ns >= 1000000000) {
      ns -= 1000000000;
      ++s;
    }
    return timestampValue(s, static_cast<std::int32_t>(ns));
  };
  if (x.kind() == Kind::Timestamp && y.kind() == Kind::Duration)
    return tsPlus(x, y.durationNanos());
  if (x.kind() == Kind::Duration && y.kind() == Kind::Timestamp)
    return tsPlus(y, x.durationNanos());
  return noSuchOverload(kFn);
}

Value sub(const Value* a, std::size_t n, EvalState& st) {
  STRICT("_-_");
  const Value &x = a[0], &y = a[1];
  if (x.kind() == Kind::Int && y.kind() == Kind::Int) {
    I64 r;
    if (__builtin_sub_overflow(x.asInt(), y.asInt(), &r)) return overflow();
    return Value::integer(r);
  }
  if (x.kind() == Kind::Uint && y.kind() == Kind::Uint) {
    U64 r;
    if (__builtin_sub_overflow(x.asUint(), y.asUint(), &r)) return overflow();
    return Value::uinteger(r);
  }
  if (x.kind() == Kind::Double && y.kind() == Kind::Double)
    return Value::dbl(x.asDouble() - y.asDouble());
  if (x.kind() == Kind::Duration && y.kind() == Kind::Duration) {
    I64 r;
    if (__builtin_sub_overflow(x.durationNanos(), y.durationNanos(), &r)) return overflow();
    return Value::duration(r);
  }
  if (x.kind() == Kind::Timestamp && y.kind() == Kind::Timestamp) {
    const I64 ds = x.timestampSeconds() - y.timestampSeconds();
    I64 r;
    if (__builtin_mul_overflow(ds, I64{1000000000}, &r) ||
        __builtin_add_overflow(r, I64{x.timestampNanos() - y.timestampNanos()}, &r))
      return overflow();
    return Value::duration(r);
  }
  if (x.kind() == Kind::Timestamp && y.kind() == Kind::Duration) {
    if (y.durationNanos() == std::numeric_limits<I64>::min()) return overflow();
    Value neg[2] = {x, Value::duration(-y.durationNanos())};
    return add(neg, 2, st);
  }
  return noSuchOverload(kFn);
}

Value mul(const Value* a, std::size_t n, EvalState& st) {
  STRICT("_*_");
  const Value &x = a[0], &y = a[1];
  if (x.kind() == Kind::Int && y.kind() == Kind::Int) {
    I64 r;
    if (__builtin_mul_overflow(x.asInt(), y.asInt(), &r)) return overflow();
    return Value::integer(r);
  }
  if (x.kind() == Kind::Uint && y.kind() == Kind::Uint) {
    U64 r;
    if (__builtin_mul_overflow(x.asUint(), y.asUint(), &r)) return overflow();
    return Value::uinteger(r);
  }
  if (x.kind() == Kind::Double && y.kind() == Kind::Double)
    return Value::dbl(x.asDouble() * y.asDouble());
  return noSuchOverload(kFn);
}

Value divide(const Value* a, std::size_t n, EvalState& st) {
  STRICT("_/_");
  const Value &x = a[0], &y = a[1];
  if (x.kind() == Kind::Int && y.kind() == Kind::Int) {
    if (y.asInt() == 0) return Value::error("division by zero");
    if (x.asInt() == std::numeric_limits<I64>::min() && y.asInt() == -1) return overflow();
    return Value::integer(x.asInt() / y.asInt());
  }
  if (x.kind() == Kind::Uint && y.kind() == Kind::Uint) {
    if (y.asUint() == 0) return Value::error("division by zero");
    return Value::uinteger(x.asUint() / y.asUint());
  }
  if (x.kind() == Kind::Double && y.kind() == Kind::Double)
    return Value::dbl(x.asDouble() / y.asDouble());
  return noSuchOverload(kFn);
}

Value modulo(const Value* a, std::size_t n, EvalState& st) {
  STRICT("_%_");
  const Value &x = a[0], &y = a[1];
  if (x.kind() == Kind::Int && y.kind() == Kind::Int) {
    if (y.asInt() == 0) return Value::error("modulus by zero");
    if (x.asInt() == std::numeric_limits<I64>::min() && y.asInt() == -1) return overflow();
    return Value::integer(x.asInt() % y.asInt());
  }
  if (x.kind() == Kind::Uint && y.kind() == Kind::Uint) {
    if (y.asUint() == 0) return Value::error("modulus by zero");
    return Value::uinteger(x.asUint() % y.asUint());
  }
  return noSuchOverload(kFn);
}

Value negate(const Value* a, std::size_t n, EvalState& st) {
  STRICT("-_");
  if (a[0].kind() == Kind::Int) {
    if (a[0].asInt() == std::numeric_limits<I64>::min()) return overflow();
    return Value::integer(-a[0].asInt());
  }
  if (a[0].kind() == Kind::Double) return Value::dbl(-a[0].asDouble());
  if (a[0].kind() == Kind::Duration) {
    if (a[0].durationNanos() == std::numeric_limits<I64>::min()) return overflow();
    return Value::duration(-a[0].durationNanos());
  }
  return noSuchOverload(kFn);
}

Value logicalNot(const Value* a, std::size_t n, EvalState& st) {
  STRICT("!_");
  if (a[0].kind() != Kind::Bool) return noSuchOverload(kFn);
  return Value::boolean(!a[0].asBool());
}

Value notStrictlyFalse(const Value* a, std::size_t, EvalState&) {
  return Value::boolean(!(a[0].kind() == Kind::Bool && !a[0].asBool()));
}

// --- comparison ---

bool comparable(const Value& x, const Value& y) {
  if (x.isNumber() && y.isNumber()) return true;
  if (x.kind() != y.kind()) return false;
  switch (x.kind()) {
    case Kind::Bool:
    case Kind::String:
    case Kind::Bytes:
    case Kind::Duration:
    case Kind::Timestamp:
      return true;
    default:
      return false;
  }
}

template <int Op>
Value relation(const Value* a, std::size_t n, EvalState& st) {
  STRICT(Op == 0 ? "_<_" : Op == 1 ? "_<=_" : Op == 2 ? "_>_" : "_>=_");
  if (!comparable(a[0], a[1])) return noSuchOverload(kFn);
  if (a[0].kind() == Kind::String)
    st.cost += traversalCost(std::min(a[0].str().size(), a[1].str().size()));
  auto c = compare(a[0], a[1]);
  if (!c) return Value::boolean(false);  // NaN
  switch (Op) {
    case 0:
      return Value::boolean(*c < 0);
    case 1:
      return Value::boolean(*c <= 0);
    case 2:
      return Value::boolean(*c > 0);
    default:
      return Value::boolean(*c >= 0);
  }
}

Value eq(const Value* a, std::size_t n, EvalState& st) {
  STRICT("_==_");
  (void)kFn;
  return equals(a[0], a[1]);
}

Value ne(const Value* a, std::size_t n, EvalState& st) {
  STRICT("_!=_");
  (void)kFn;
  Value e = equals(a[0], a[1]);
  return e.isError() ? e : Value::boolean(!e.asBool());
}

Value in(const Value* a, std::size_t n, EvalState& st) {
  STRICT("@in");
  if (a[1].kind() == Kind::List) {
    const auto& l = a[1].asList();
    st.cost += l.size();
    for (std::size_t i = 0; i < l.size(); ++i)
      if (equalValues(a[0], l.at(i))) return Value::boolean(true);
    return Value::boolean(false);
  }
  if (a[1].kind() == Kind::Map) return Value::boolean(a[1].asMap().find(a[0]).has_value());
  return noSuchOverload(kFn);
}

// An integral index of a list: int, uint, or a double with no fraction.
std::optional<I64> listIndex(const Value& v) {
  if (v.kind() == Kind::Int) return v.asInt();
  if (v.kind() == Kind::Uint)
    return v.asUint() > static_cast<U64>(std::numeric_limits<I64>::max())
               ? std::optional<I64>(-1)
               : static_cast<I64>(v.asUint());
  if (v.kind() == Kind::Double && std::trunc(v.asDouble()) == v.asDouble() &&
      std::fabs(v.asDouble()) < 9.2e18)
    return static_cast<I64>(v.asDouble());
  return std::nullopt;
}

Value index(const Value* a, std::size_t n, EvalState& st) {
  STRICT("_[_]");
  if (a[0].kind() == Kind::Optional) {  // indexing an optional chains, as x[?k] does
    const Builtin* optionalIndex = kubernetesFunctions().find("_[?_]", false);
    return optionalIndex->fn(a, n, st);
  }
  if (a[0].kind() == Kind::List) {
    auto i = listIndex(a[1]);
    if (!i) return noSuchOverload(kFn);
    const auto& l = a[0].asList();
    if (*i < 0 || static_cast<std::size_t>(*i) >= l.size())
      return Value::error("index out of bounds: " + std::to_string(*i));
    return l.at(static_cast<std::size_t>(*i));
  }
  if (a[0].kind() == Kind::Map) {
    auto v = a[0].asMap().find(a[1]);
    if (!v) {
      std::string k = a[1].kind() == Kind::String ? a[1].str() : debugString(a[1]);
      return Value::error("no such key: " + k);
    }
    return *v;
  }
  return noSuchOverload(kFn);
}

// --- size and strings ---

Value size(const Value* a, std::size_t n, EvalState& st) {
  STRICT("size");
  if (n != 1) return noSuchOverload(kFn);
  switch (a[0].kind()) {
    case Kind::String:
      return Value::integer(static_cast<I64>(runeCount(a[0].str())));
    case Kind::Bytes:
      return Value::integer(static_cast<I64>(a[0].str().size()));
    case Kind::List:
      return Value::integer(static_cast<I64>(a[0].asList().size()));
    case Kind::Map:
      return Value::integer(static_cast<I64>(a[0].asMap().size()));
    default:
      return noSuchOverload(kFn);
  }
}

Value contains(const Value* a, std::size_t n, EvalState& st) {
  STRICT("contains");
  if (n != 2 || !allOf(a, 2, Kind::String)) return noSuchOverload(kFn);
  st.cost += traversalCost(a[0].str().size()) * traversalCost(a[1].str().size());
  return Value::boolean(a[0].str().find(a[1].str()) != std::string::npos);
}

Value startsWith(const Value* a, std::size_t n, EvalState& st) {
  STRICT("startsWith");
  if (n != 2 || !allOf(a, 2, Kind::String)) return noSuchOverload(kFn);
  st.cost += traversalCost(a[1].str().size());
  return Value::boolean(a[0].str().compare(0, a[1].str().size(), a[1].str()) == 0);
}

Value endsWith(const Value* a, std::size_t n, EvalState& st) {
  STRICT("endsWith");
  if (n != 2 || !allOf(a, 2, Kind::String)) return noSuchOverload(kFn);
  st.cost += traversalCost(a[1].str().size());
  const auto& s = a[0].str();
  const auto& x = a[1].str();
  return Value::boolean(s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0);
}

// --- conversions ---

// Go's strconv.FormatFloat(d, 'g', -1, 64), which cel-go's string(double) uses through %g.
std::string goFormatG(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  if (d == 0) return std::signbit(d) ? "-0" : "0";
  char buf[64];
  int prec = 1;
  for (; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  // buf holds the shortest digits in %e form: d.ddde±XX
  std::string e = buf;
  const std::size_t epos = e.find('e');
  std::string mant = e.substr(0, epos);
  const int exp = std::atoi(e.c_str() + epos + 1);
  std::string digitsOnly;
  for (char c : mant)
    if (c >= '0' && c <= '9') digitsOnly += c;
  const bool neg = d < 0;
  if (exp < -4 || exp >= 21) {
    std::string m = digitsOnly.substr(0, 1);
    if (digitsOnly.size() > 1) m += "." + digitsOnly.substr(1);
    char ex[16];
    std::snprintf(ex, sizeof ex, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    return (neg ? "-" : "") + m + ex;
  }
  std::string out;
  if (exp < 0) {
    out = "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digitsOnly;
  } else if (static_cast<std::size_t>(exp) + 1 >= digitsOnly.size()) {
    out = digitsOnly + std::string(static_cast<std::size_t>(exp) + 1 - digitsOnly.size(), '0');
  } else {
    out = digitsOnly.substr(0, static_cast<std::size_t>(exp) + 1) + "." +
          digitsOnly.substr(static_cast<std::size_t>(exp) + 1);
  }
  return (neg ? "-" : "") + out;
}

Value toInt(const Value* a, std::size_t n, EvalState& st) {
  STRICT("int");
  const Value& x = a[0];
  switch (x.kind()) {
    case Kind::Int:
      return x;
    case Kind::Uint:
      if (x.asUint() > static_cast<U64>(std::numeric_limits<I64>::max()))
        return Value::error("integer overflow");
      return Value::integer(static_cast<I64>(x.asUint()));
    case Kind::Double: {
      const double d = x.asDouble();
      if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0))
        return Value::error("integer overflow");
      return Value::integer(static_cast<I64>(d));
    }
    case Kind::String: {
      const std::string& s = x.str();
      char* end = nullptr;
      errno = 0;
      const long long v = std::strtoll(s.c_str(), &end, 10);
      if (s.empty() || *end || errno == ERANGE || std::isspace(static_cast<unsigned char>(s[0])))
        return Value::error("cannot convert string '" + s + "' to int");
      return Value::integer(v);
    }
    case Kind::Timestamp:
      return Value::integer(x.timestampSeconds());
    default:
      return noSuchOverload(kFn);
  }
}

Value toUint(const Value* a, std::size_t n, EvalState& st) {
  STRICT("uint");
  const Value& x = a[0];
  switch (x.kind()) {
    case Kind::Uint:
      return x;
    case Kind::Int:
      if (x.asInt() < 0) return Value::error("unsigned integer overflow");
      return Value::uinteger(static_cast<U64>(x.asInt()));
    case Kind::Double: {
      const double d = x.asDouble();
      if (!(d > -1.0 && d < 18446744073709551616.0))
        return Value::error("unsigned integer overflow");
      return Value::uinteger(static_cast<U64>(d));
    }
    case Kind::String: {
      const std::string& s = x.str();
      char* end = nullptr;
      errno = 0;
      if (s.empty() || s[0] == '-' || s[0] == '+' || std::isspace(static_cast<unsigned char>(s[0])))
        return Value::error("cannot convert string '" + s + "' to uint");
      const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
      if (*end || errno == ERANGE) return Value::error("cannot convert string '" + s + "' to uint");
      return Value::uinteger(v);
    }
    default:
      return noSuchOverload(kFn);
  }
}

Value toDouble(const Value* a, std::size_t n, EvalState& st) {
  STRICT("double");
  const Value& x = a[0];
  switch (x.kind()) {
    case Kind::Double:
      return x;
    case Kind::Int:
      return Value::dbl(static_cast<double>(x.asInt()));
    case Kind::Uint:
      return Value::dbl(static_cast<double>(x.asUint()));
    case Kind::String: {
      const std::string& s = x.str();
      std::string lower;
      for (char c : s) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity")
        return Value::dbl(INFINITY);
      if (lower == "-inf" || lower == "-infinity") return Value::dbl(-INFINITY);
      if (lower == "nan") return Value::dbl(NAN);
      char* end = nullptr;
      const double d = std::strtod(s.c_str(), &end);
      if (s.empty() || *end || std::isspace(static_cast<unsigned char>(s[0])) ||
          lower.find("x") != std::string::npos)
        return Value::error("cannot convert string '" + s + "' to double");
      return Value::dbl(d);
    }
    default:
      return noSuchOverload(kFn);
  }
}

Value toString(const Value* a, std::size_t n, EvalState& st) {
  STRICT("string");
  const Value& x = a[0];
  switch (x.kind()) {
    case Kind::String:
      return x;
    case Kind::Int:
      return Value::string(std::to_string(x.asInt()));
    case Kind::Uint:
      return Value::string(std::to_string(x.asUint()));
    case Kind::Double:
      return Value::string(goFormatG(x.asDouble()));
    case Kind::Bool:
      return Value::string(x.asBool() ? "true" : "false");
    case Kind::Bytes:
      if (firstInvalidUtf8(x.str()) != std::string::npos)
        return Value::error("invalid UTF-8 in bytes, cannot convert to string");
      return Value::string(x.str());
    case Kind::Timestamp:
      return Value::string(formatRfc3339({x.timestampSeconds(), x.timestampNanos()}));
    case Kind::Duration: {
      const I64 ns = x.durationNanos();
      std::string s = goFormatG(static_cast<double>(ns) / 1e9);
      if (ns % 1000000000 == 0) s = std::to_string(ns / 1000000000);
      return Value::string(s + "s");
    }
    case Kind::Type:
      return Value::string(x.str());
    case Kind::Opaque:
      if (auto text = x.asOpaque().text()) return Value::string(*text);
      return noSuchOverload(kFn);
    default:
      return noSuchOverload(kFn);
  }
}

Value toBytes(const Value* a, std::size_t n, EvalState& st) {
  STRICT("bytes");
  if (a[0].kind() == Kind::Bytes) return a[0];
  if (a[0].kind() == Kind::String) return Value::bytes(a[0].str());
  return noSuchOverload(kFn);
}

Value toBool(const Value* a, std::size_t n, EvalState& st) {
  STRICT("bool");
  if (a[0].kind() == Kind::Bool) return a[0];
  if (a[0].kind() == Kind::String) {
    const std::string& s = a[0].str();
    if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True")
      return Value::boolean(true);
    if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False")
      return Value::boolean(false);
    return Value::error("type conversion error from 'string' to 'bool'");
  }
  return noSuchOverload(kFn);
}

Value toDuration(const Value* a, std::size_t n, EvalState& st) {
  STRICT("duration");
  if (a[0].kind() == Kind::Duration) return a[0];
  if (a[0].kind() == Kind::Int) return Value::duration(a[0].asInt() * 1000000000);
  if (a[0].kind() != Kind::String) return noSuchOverload(kFn);
  std::string why;
  auto d = goParseDuration(a[0].str(), &why);
  if (!d) return Value::error("failed to parse duration: " + a[0].str());
  return Value::duration(*d);
}

Value toTimestamp(const Value* a, std::size_t n, EvalState& st) {
  STRICT("timestamp");
  if (a[0].kind() == Kind::Timestamp) return a[0];
  if (a[0].kind() == Kind::Int) return timestampValue(a[0].asInt(), 0);
  if (a[0].kind() != Kind::String) return noSuchOverload(kFn);
  auto t = parseRfc3339(a[0].str());
  if (!t) return Value::error("failed to parse timestamp: " + a[0].str());
  return timestampValue(t->seconds, t->nanos);
}

Value typeOf(const Value* a, std::size_t n, EvalState& st) {
  STRICT("type");
  (void)kFn;
  return Value::type(typeNameOf(a[0]));
}

Value dyn(const Value* a, std::size_t, EvalState&) { return a[0]; }

// --- time accessors ---

template <int Field>
Value timeField(const Value* a, std::size_t n, EvalState& st) {
  STRICT("timestamp accessor");
  if (a[0].kind() == Kind::Duration && n == 1) {
    const I64 ns = a[0].durationNanos();
    switch (Field) {
      case 5:
        return Value::integer(ns / 3600000000000LL);
      case 6:
        return Value::integer(ns / 60000000000LL);
      case 7:
        return Value::integer(ns / 1000000000LL);
      case 8:
        return Value::integer(ns / 1000000LL % 1000);
      default:
        return noSuchOverload(kFn);
    }
  }
  if (a[0].kind() != Kind::Timestamp) return noSuchOverload(kFn);
  std::string zone;
  if (n == 2) {
    if (a[1].kind() != Kind::String) return noSuchOverload(kFn);
    zone = a[1].str();
  }
  auto c = civilTime({a[0].timestampSeconds(), a[0].timestampNanos()}, zone);
  if (!c) return Value::error("unknown time zone " + zone);
  switch (Field) {
    case 0:
      return Value::integer(c->year);
    case 1:
      return Value::integer(c->month - 1);
    case 2:
      return Value::integer(c->day);  // getDayOfMonth is 0-based, getDate 1-based
    case 3:
      return Value::integer(c->dayOfWeek);
    case 4:
      return Value::integer(c->dayOfYear);
    case 5:
      return Value::integer(c->hours);
    case 6:
      return Value::integer(c->minutes);
    case 7:
      return Value::integer(c->seconds);
    case 8:
      return Value::integer(c->nanos / 1000000);
    case 9:
      return Value::integer(c->day - 1);
    default:
      return noSuchOverload(kFn);
  }
}

}  // namespace

Value noSuchOverload(const char* function) {
  return Value::error(std::string("no such overload: ") + function);
}

void addStandardLibrary(FunctionTable& t) {
  t.global("_+_", add);
  t.global("_-_", sub);
  t.global("_*_", mul);
  t.global("_/_", divide);
  t.global("_%_", modulo);
  t.global("-_", negate);
  t.global("!_", logicalNot);
  t.global("@not_strictly_false", notStrictlyFalse);
  t.global("_==_", eq);
  t.global("_!=_", ne);
  t.global("_<_", relation<0>);
  t.global("_<=_", relation<1>);
  t.global("_>_", relation<2>);
  t.global("_>=_", relation<3>);
  t.global("@in", in);
  t.global("_[_]", index);
  t.both("size", size);
  t.member("contains", contains);
  t.member("startsWith", startsWith);
  t.member("endsWith", endsWith);
  t.global("int", toInt);
  t.global("uint", toUint);
  t.global("double", toDouble);
  t.global("string", toString);
  t.global("bytes", toBytes);
  t.global("bool", toBool);
  t.global("duration", toDuration);
  t.global("timestamp", toTimestamp);
  t.global("type", typeOf);
  t.global("dyn", dyn);
  t.member("getFullYear", timeField<0>);
  t.member("getMonth", timeField<1>);
  t.member("getDate", timeField<2>);
  t.member("getDayOfWeek", timeField<3>);
  t.member("getDayOfYear", timeField<4>);
  t.member("getHours", timeField<5>);
  t.member("getMinutes", timeField<6>);
  t.member("getSeconds", timeField<7>);
  t.member("getMilliseconds", timeField<8>);
  t.member("getDayOfMonth", timeField<9>);
}

const FunctionTable& kubernetesFunctions() {
  static const FunctionTable table = [] {
    FunctionTable t;
    addStandardLibrary(t);
    addStringsLibrary(t);
    addListsLibrary(t);
    addRegexLibrary(t);
    addUrlsLibrary(t);
    addNetLibrary(t);
    addQuantityLibrary(t);
    addOptionalLibrary(t);
    addFormatLibrary(t);
    return t;
  }();
  return table;
}

}  // namespace convcheck::cel
