#include "kube/cel/value.h"

#include <cmath>
#include <cstdio>

namespace convcheck::cel {

namespace {

const std::string kEmpty;

std::shared_ptr<const std::string> ownedString(std::string s) {
  return std::make_shared<const std::string>(std::move(s));
}

}  // namespace

Value Value::boolean(bool b) {
  Value v;
  v.kind_ = Kind::Bool;
  v.n_.b = b;
  return v;
}

Value Value::integer(std::int64_t i) {
  Value v;
  v.kind_ = Kind::Int;
  v.n_.i = i;
  return v;
}

Value Value::uinteger(std::uint64_t u) {
  Value v;
  v.kind_ = Kind::Uint;
  v.n_.u = u;
  return v;
}

Value Value::dbl(double d) {
  Value v;
  v.kind_ = Kind::Double;
  v.n_.d = d;
  return v;
}

Value Value::string(std::string s) {
  Value v;
  v.kind_ = Kind::String;
  auto p = ownedString(std::move(s));
  v.s_ = p.get();
  v.p_ = std::move(p);
  return v;
}

Value Value::borrowedString(const std::string* s) {
  Value v;
  v.kind_ = Kind::String;
  v.s_ = s;
  return v;
}

Value Value::bytes(std::string b) {
  Value v = string(std::move(b));
  v.kind_ = Kind::Bytes;
  return v;
}

Value Value::list(std::shared_ptr<const ListImpl> l) {
  Value v;
  v.kind_ = Kind::List;
  v.p_ = std::move(l);
  return v;
}

Value Value::list(std::vector<Value> items) {
  return list(std::make_shared<const VectorList>(std::move(items)));
}

Value Value::map(std::shared_ptr<const MapImpl> m) {
  Value v;
  v.kind_ = Kind::Map;
  v.p_ = std::move(m);
  return v;
}

Value Value::duration(std::int64_t nanos) {
  Value v;
  v.kind_ = Kind::Duration;
  v.n_.i = nanos;
  return v;
}

Value Value::timestamp(std::int64_t seconds, std::int32_t nanos) {
  Value v;
  v.kind_ = Kind::Timestamp;
  v.n_.i = seconds;
  v.nanos_ = nanos;
  return v;
}

Value Value::type(std::string name) {
  Value v = string(std::move(name));
  v.kind_ = Kind::Type;
  return v;
}

Value Value::optionalOf(Value inner) {
  Value v;
  v.kind_ = Kind::Optional;
  v.p_ = std::make_shared<const Value>(std::move(inner));
  return v;
}

Value Value::optionalNone() {
  Value v;
  v.kind_ = Kind::Optional;
  return v;
}

Value Value::error(std::string message) {
  Value v = string(std::move(message));
  v.kind_ = Kind::Error;
  return v;
}

Value Value::opaque(std::shared_ptr<const OpaqueImpl> o) {
  Value v;
  v.kind_ = Kind::Opaque;
  v.p_ = std::move(o);
  return v;
}

const std::string& ListImpl::listType() const { return kEmpty; }

std::optional<Value> MapImpl::field(const std::string& name) const {
  return find(Value::borrowedString(&name));
}

std::optional<Value> VectorMap::find(const Value& key) const {
  for (const auto& [k, v] : entries_)
    if (equalValues(k, key)) return v;
  return std::nullopt;
}

std::string typeNameOf(const Value& v) {
  switch (v.kind()) {
    case Kind::Null:
      return "null_type";
    case Kind::Bool:
      return "bool";
    case Kind::Int:
      return "int";
    case Kind::Uint:
      return "uint";
    case Kind::Double:
      return "double";
    case Kind::String:
      return "string";
    case Kind::Bytes:
      return "bytes";
    case Kind::List:
      return "list";
    case Kind::Map:
      return "map";
    case Kind::Duration:
      return "google.protobuf.Duration";
    case Kind::Timestamp:
      return "google.protobuf.Timestamp";
    case Kind::Type:
      return "type";
    case Kind::Optional:
      return "optional_type";
    case Kind::Error:
      return "error";
    case Kind::Opaque:
      return v.asOpaque().typeName();
  }
  return "";
}

namespace {

// Numbers of any kind by value: <0, 0, >0, or nullopt for NaN.
std::optional<int> compareNumbers(const Value& a, const Value& b) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); };
  const Kind ka = a.kind(), kb = b.kind();
  if (ka == Kind::Int && kb == Kind::Int) return cmp(a.asInt(), b.asInt());
  if (ka == Kind::Uint && kb == Kind::Uint) return cmp(a.asUint(), b.asUint());
  if (ka == Kind::Int && kb == Kind::Uint)
    return a.asInt() < 0 ? -1 : cmp(static_cast<std::uint64_t>(a.asInt()), b.asUint());
  if (ka == Kind::Uint && kb == Kind::Int)
    return b.asInt() < 0 ? 1 : cmp(a.asUint(), static_cast<std::uint64_t>(b.asInt()));
  auto asD = [](const Value& v) {
    return v.kind() == Kind::Double ? v.asDouble()
           : v.kind() == Kind::Int  ? static_cast<double>(v.asInt())
                                    : static_cast<double>(v.asUint());
  };
  const double x = asD(a), y = asD(b);
  if (std::isnan(x) || std::isnan(y)) return std::nullopt;
  // As cel-go: an integer against a double compares as doubles, after the range checks.
  if (ka == Kind::Double && kb != Kind::Double) {
    auto r = compareNumbers(b, a);
    return r ? std::optional<int>(-*r) : std::nullopt;
  }
  if (ka != Kind::Double && kb == Kind::Double) {
    if (ka == Kind::Int) {
      if (y < -9223372036854775808.0) return 1;
      if (y > 9223372036854775807.0) return -1;
    } else {
      if (y < 0) return 1;
      if (y > 18446744073709551615.0) return -1;
    }
  }
  return cmp(x, y);
}

Value listEquals(const ListImpl& a, const ListImpl& b);

Value orderedListEquals(const ListImpl& a, const ListImpl& b) {
  if (a.size() != b.size()) return Value::boolean(false);
  Value firstError;
  bool sawError = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    Value e = equals(a.at(i), b.at(i));
    if (e.isError()) {
      if (!sawError) firstError = e;
      sawError = true;
      continue;
    }
    if (!e.asBool()) return e;
  }
  return sawError ? firstError : Value::boolean(true);
}

// Set lists: every element of one is in the other (their items are unique by the schema).
Value setListEquals(const ListImpl& a, const ListImpl& b) {
  if (a.size() != b.size()) return Value::boolean(false);
  for (std::size_t i = 0; i < a.size(); ++i) {
    bool found = false;
    const Value x = a.at(i);
    for (std::size_t j = 0; j < b.size() && !found; ++j) found = equalValues(x, b.at(j));
    if (!found) return Value::boolean(false);
  }
  return Value::boolean(true);
}

// Map lists: items matched by their key fields, then compared whole.
Value mapListEquals(const ListImpl& a, const ListImpl& b, const std::vector<std::string>& keys) {
  if (a.size() != b.size()) return Value::boolean(false);
  auto keyOf = [&keys](const Value& item) {
    std::vector<std::optional<Value>> k;
    if (item.kind() != Kind::Map) return k;
    for (const auto& name : keys) k.push_back(item.asMap().field(name));
    return k;
  };
  auto sameKey = [](const std::vector<std::optional<Value>>& x,
                    const std::vector<std::optional<Value>>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (x[i].has_value() != y[i].has_value()) return false;
      if (x[i] && !equalValues(*x[i], *y[i])) return false;
    }
    return true;
  };
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Value x = a.at(i);
    const auto kx = keyOf(x);
    bool matched = false;
    for (std::size_t j = 0; j < b.size() && !matched; ++j) {
      const Value y = b.at(j);
      if (sameKey(kx, keyOf(y))) {
        if (!equalValues(x, y)) return Value::boolean(false);
        matched = true;
      }
    }
    if (!matched) return Value::boolean(false);
  }
  return Value::boolean(true);
}

Value listEquals(const ListImpl& a, const ListImpl& b) {
  const ListImpl& typed = a.listType().empty() ? b : a;
  if (typed.listType() == "set") return setListEquals(a, b);
  if (typed.listType() == "map" && typed.mapKeys()) return mapListEquals(a, b, *typed.mapKeys());
  return orderedListEquals(a, b);
}

Value mapEquals(const MapImpl& a, const MapImpl& b) {
  if (a.size() != b.size()) return Value::boolean(false);
  Value firstError;
  bool sawError = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto other = b.find(a.keyAt(i));
    if (!other) return Value::boolean(false);
    Value e = equals(a.valueAt(i), *other);
    if (e.isError()) {
      if (!sawError) firstError = e;
      sawError = true;
      continue;
    }
    if (!e.asBool()) return e;
  }
  return sawError ? firstError : Value::boolean(true);
}

}  // namespace

Value equals(const Value& a, const Value& b) {
  if (a.isError()) return a;
  if (b.isError()) return b;
  if (a.isNumber() && b.isNumber()) {
    auto c = compareNumbers(a, b);
    return Value::boolean(c && *c == 0);
  }
  if (a.kind() != b.kind()) return Value::boolean(false);
  switch (a.kind()) {
    case Kind::Null:
      return Value::boolean(true);
    case Kind::Bool:
      return Value::boolean(a.asBool() == b.asBool());
    case Kind::String:
    case Kind::Bytes:
    case Kind::Type:
      return Value::boolean(a.str() == b.str());
    case Kind::List:
      return listEquals(a.asList(), b.asList());
    case Kind::Map:
      return mapEquals(a.asMap(), b.asMap());
    case Kind::Duration:
      return Value::boolean(a.durationNanos() == b.durationNanos());
    case Kind::Timestamp:
      return Value::boolean(a.timestampSeconds() == b.timestampSeconds() &&
                            a.timestampNanos() == b.timestampNanos());
    case Kind::Optional:
      if (a.hasValue() != b.hasValue()) return Value::boolean(false);
      return a.hasValue() ? equals(a.optionalValue(), b.optionalValue()) : Value::boolean(true);
    case Kind::Opaque:
      return Value::boolean(std::string(a.asOpaque().typeName()) == b.asOpaque().typeName() &&
                            a.asOpaque().equals(b.asOpaque()));
    default:
      return Value::boolean(false);
  }
}

bool equalValues(const Value& a, const Value& b) {
  Value e = equals(a, b);
  return !e.isError() && e.asBool();
}

std::optional<int> compare(const Value& a, const Value& b) {
  if (a.isNumber() && b.isNumber()) return compareNumbers(a, b);
  if (a.kind() != b.kind()) return std::nullopt;
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); };
  switch (a.kind()) {
    case Kind::Bool:
      return cmp(a.asBool(), b.asBool());
    case Kind::String:
    case Kind::Bytes:
      return cmp(a.str().compare(b.str()), 0);
    case Kind::Duration:
      return cmp(a.durationNanos(), b.durationNanos());
    case Kind::Timestamp:
      if (a.timestampSeconds() != b.timestampSeconds())
        return cmp(a.timestampSeconds(), b.timestampSeconds());
      return cmp(a.timestampNanos(), b.timestampNanos());
    default:
      return std::nullopt;
  }
}

namespace {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string debugString(const Value& v) {
  switch (v.kind()) {
    case Kind::Null:
      return "null";
    case Kind::Bool:
      return v.asBool() ? "true" : "false";
    case Kind::Int:
      return std::to_string(v.asInt());
    case Kind::Uint:
      return std::to_string(v.asUint()) + "u";
    case Kind::Double: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", v.asDouble());
      return buf;
    }
    case Kind::String:
      return quote(v.str());
    case Kind::Bytes:
      return "b" + quote(v.str());
    case Kind::List: {
      std::string s = "[";
      const auto& l = v.asList();
      for (std::size_t i = 0; i < l.size(); ++i) s += (i ? ", " : "") + debugString(l.at(i));
      return s + "]";
    }
    case Kind::Map: {
      std::string s = "{";
      const auto& m = v.asMap();
      for (std::size_t i = 0; i < m.size(); ++i)
        s += (i ? ", " : "") + debugString(m.keyAt(i)) + ": " + debugString(m.valueAt(i));
      return s + "}";
    }
    case Kind::Duration:
      return "duration(" + std::to_string(v.durationNanos()) + "ns)";
    case Kind::Timestamp:
      return "timestamp(" + std::to_string(v.timestampSeconds()) + "s+" +
             std::to_string(v.timestampNanos()) + "ns)";
    case Kind::Type:
      return v.str();
    case Kind::Optional:
      return v.hasValue() ? "optional.of(" + debugString(v.optionalValue()) + ")"
                          : "optional.none()";
    case Kind::Error:
      return "error(" + v.str() + ")";
    case Kind::Opaque:
      return v.asOpaque().typeName();
  }
  return "";
}

}  // namespace convcheck::cel
