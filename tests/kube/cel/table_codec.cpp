#include "tests/kube/cel/table_codec.h"

#include <cmath>

#include "kube/cel/json_view.h"

namespace convcheck::cel::testing {

using nlohmann::json;

json encode(const Value& v) {
  switch (v.kind()) {
    case Kind::Null:
      return {{"null", true}};
    case Kind::Bool:
      return {{"bool", v.asBool()}};
    case Kind::Int:
      return {{"int", std::to_string(v.asInt())}};
    case Kind::Uint:
      return {{"uint", std::to_string(v.asUint())}};
    case Kind::Double:
      if (std::isnan(v.asDouble())) return {{"double", "NaN"}};
      if (std::isinf(v.asDouble()))
        return {{"double", v.asDouble() > 0 ? "Infinity" : "-Infinity"}};
      return {{"double", v.asDouble()}};
    case Kind::String:
      return {{"string", v.str()}};
    case Kind::Bytes: {
      auto j = toJson(v);
      return {{"bytes", std::get<json>(j)}};
    }
    case Kind::List: {
      json a = json::array();
      for (std::size_t i = 0; i < v.asList().size(); ++i) a.push_back(encode(v.asList().at(i)));
      return {{"list", a}};
    }
    case Kind::Map: {
      json a = json::array();
      for (std::size_t i = 0; i < v.asMap().size(); ++i)
        a.push_back(json::array({encode(v.asMap().keyAt(i)), encode(v.asMap().valueAt(i))}));
      return {{"map", a}};
    }
    case Kind::Type:
      return {{"type", v.str()}};
    case Kind::Error:
      return "error";
    default:
      return {{"other", typeNameOf(v)}};
  }
}

bool sameEncoding(const json& a, const json& b) {
  if (a.is_string() || b.is_string()) return a == b;
  if (!a.is_object() || !b.is_object() || a.size() != 1 || b.size() != 1) return a == b;
  const std::string ka = a.begin().key(), kb = b.begin().key();
  if (ka != kb) return false;
  const json &x = a.begin().value(), &y = b.begin().value();
  if (ka == "double") {
    if (x.is_string() || y.is_string()) return x == y;
    return x.get<double>() == y.get<double>();
  }
  if (ka == "list") {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!sameEncoding(x[i], y[i])) return false;
    return true;
  }
  if (ka == "map") {
    if (x.size() != y.size()) return false;
    for (const auto& e : x) {
      bool found = false;
      for (const auto& f : y)
        if (sameEncoding(e[0], f[0]) && sameEncoding(e[1], f[1])) found = true;
      if (!found) return false;
    }
    return true;
  }
  return x == y;
}

Value decode(const json& e, std::string& storage) {
  (void)storage;
  if (!e.is_object() || e.size() != 1) return Value::error("undecodable");
  const std::string k = e.begin().key();
  const json& x = e.begin().value();
  if (k == "null") return Value::null();
  if (k == "bool") return Value::boolean(x.get<bool>());
  if (k == "int") return Value::integer(std::stoll(x.get<std::string>()));
  if (k == "uint") return Value::uinteger(std::stoull(x.get<std::string>()));
  if (k == "double") {
    if (x.is_string()) {
      const std::string s = x.get<std::string>();
      return Value::dbl(s == "NaN" ? NAN : (s == "Infinity" ? INFINITY : -INFINITY));
    }
    return Value::dbl(x.get<double>());
  }
  if (k == "string") return Value::string(x.get<std::string>());
  if (k == "list") {
    std::vector<Value> items;
    for (const auto& i : x) items.push_back(decode(i, storage));
    return Value::list(std::move(items));
  }
  if (k == "map") {
    std::vector<std::pair<Value, Value>> entries;
    for (const auto& p : x) entries.emplace_back(decode(p[0], storage), decode(p[1], storage));
    return Value::map(std::make_shared<const VectorMap>(std::move(entries)));
  }
  return Value::error("undecodable " + k);
}

}  // namespace convcheck::cel::testing
