#include "kube/cel/json_view.h"

#include <cmath>
#include <cstdio>

#include "kube/cel/time_text.h"
#include "kube/go/duration.h"

namespace convcheck::cel {

using nlohmann::json;

namespace {

class JsonList final : public ListImpl {
 public:
  JsonList(const json& a, const CelSchema* s) : a_(a), s_(s) {}
  std::size_t size() const override { return a_.size(); }
  Value at(std::size_t i) const override {
    return jsonValue(a_[i], s_ && s_->items ? s_->items.get() : nullptr);
  }
  const std::string& listType() const override {
    static const std::string none;
    return s_ ? s_->listType : none;
  }
  const std::vector<std::string>* mapKeys() const override {
    return s_ && s_->listType == "map" ? &s_->listMapKeys : nullptr;
  }

 private:
  const json& a_;
  const CelSchema* s_;
};

// An object of a schema with properties (field names unescaped) or a map (additionalProperties,
// or preserved unknown fields).
class JsonMap final : public MapImpl {
 public:
  JsonMap(const json& o, const CelSchema* s, bool object) : o_(o), s_(s), object_(object) {}
  std::size_t size() const override { return o_.size(); }
  std::optional<Value> find(const Value& key) const override {
    if (key.kind() != Kind::String) return std::nullopt;
    return lookup(key.str());
  }
  std::optional<Value> field(const std::string& name) const override {
    return lookup(object_ ? unescapePropertyName(name) : name);
  }
  Value keyAt(std::size_t i) const override {
    entries();
    return Value::borrowedString(&entries_[i]->first);
  }
  Value valueAt(std::size_t i) const override {
    entries();
    return jsonValue(entries_[i]->second, childSchema(entries_[i]->first));
  }
  bool isObject() const override { return object_; }

 private:
  const CelSchema* childSchema(const std::string& name) const {
    if (!s_) return nullptr;
    if (const CelSchema* p = s_->property(name)) return p;
    return s_->additionalProperties.get();
  }
  std::optional<Value> lookup(const std::string& name) const {
    auto it = o_.find(name);
    if (it == o_.end()) return std::nullopt;
    return jsonValue(*it, childSchema(name));
  }
  void entries() const {
    if (!entries_.empty() || o_.empty()) return;
    const auto& obj = o_.get_ref<const json::object_t&>();
    entries_.reserve(obj.size());
    for (const auto& kv : obj) entries_.push_back(&kv);
  }

  const json& o_;
  const CelSchema* s_;
  bool object_;
  mutable std::vector<const json::object_t::value_type*> entries_;
};

std::string base64Decode(const std::string& in, bool& ok) {
  static const std::string chars =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  int val = 0, bits = -8;
  ok = in.size() % 4 == 0;
  for (std::size_t i = 0; i < in.size() && ok; ++i) {
    const char c = in[i];
    if (c == '=') {
      ok = i + 2 >= in.size();
      continue;
    }
    const auto p = chars.find(c);
    if (p == std::string::npos) {
      ok = false;
      break;
    }
    val = (val << 6) + static_cast<int>(p);
    bits += 6;
    if (bits >= 0) {
      out += static_cast<char>((val >> bits) & 0xFF);
      bits -= 8;
    }
  }
  return out;
}

std::string base64Encode(const std::string& in) {
  static const char* chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = static_cast<unsigned char>(in[i]) << 16 |
                       static_cast<unsigned char>(in[i + 1]) << 8 |
                       static_cast<unsigned char>(in[i + 2]);
    out += chars[v >> 18 & 63];
    out += chars[v >> 12 & 63];
    out += chars[v >> 6 & 63];
    out += chars[v & 63];
  }
  if (i + 1 == in.size()) {
    const unsigned v = static_cast<unsigned char>(in[i]) << 16;
    out += chars[v >> 18 & 63];
    out += chars[v >> 12 & 63];
    out += "==";
  } else if (i + 2 == in.size()) {
    const unsigned v =
        static_cast<unsigned char>(in[i]) << 16 | static_cast<unsigned char>(in[i + 1]) << 8;
    out += chars[v >> 18 & 63];
    out += chars[v >> 12 & 63];
    out += chars[v >> 6 & 63];
    out += '=';
  }
  return out;
}

Value stringValue(const json& v, const CelSchema* s) {
  const std::string& str = v.get_ref<const std::string&>();
  if (!s || s->intOrString) return Value::borrowedString(&str);
  if (s->format == "byte") {
    bool ok = false;
    std::string b = base64Decode(str, ok);
    return ok ? Value::bytes(std::move(b)) : Value::error("illegal base64 data: " + str);
  }
  if (s->format == "duration") {
    auto d = goParseDuration(str);
    return d ? Value::duration(*d) : Value::error("invalid duration: " + str);
  }
  if (s->format == "date") {
    auto t = parseDate(str);
    return t ? Value::timestamp(t->seconds, t->nanos) : Value::error("invalid date: " + str);
  }
  if (s->format == "date-time") {
    auto t = parseRfc3339(str);
    return t ? Value::timestamp(t->seconds, t->nanos) : Value::error("invalid date-time: " + str);
  }
  return Value::borrowedString(&str);
}

}  // namespace

Value jsonValue(const json& v, const CelSchema* s) {
  switch (v.type()) {
    case json::value_t::null:
      return Value::null();
    case json::value_t::boolean:
      return Value::boolean(v.get<bool>());
    case json::value_t::number_integer:
      if (s && s->type == "number") return Value::dbl(static_cast<double>(v.get<std::int64_t>()));
      return Value::integer(v.get<std::int64_t>());
    case json::value_t::number_unsigned: {
      const auto u = v.get<std::uint64_t>();
      if (s && s->type == "number") return Value::dbl(static_cast<double>(u));
      if (u > static_cast<std::uint64_t>(INT64_MAX)) return Value::dbl(static_cast<double>(u));
      return Value::integer(static_cast<std::int64_t>(u));
    }
    case json::value_t::number_float: {
      const double d = v.get<double>();
      if (s && (s->type == "integer" || s->intOrString) && std::trunc(d) == d &&
          std::fabs(d) < 9.2e18)
        return Value::integer(static_cast<std::int64_t>(d));
      return Value::dbl(d);
    }
    case json::value_t::string:
      return stringValue(v, s);
    case json::value_t::array:
      return Value::list(std::make_shared<const JsonList>(v, s));
    case json::value_t::object: {
      const bool object = s && s->isObjectWithFields() && !s->additionalProperties;
      return Value::map(std::make_shared<const JsonMap>(v, s, object));
    }
    default:
      return Value::error("unsupported JSON value");
  }
}

std::variant<json, std::string> toJson(const Value& v) {
  constexpr std::int64_t kSafe = (std::int64_t{1} << 53) - 1;
  switch (v.kind()) {
    case Kind::Null:
      return json(nullptr);
    case Kind::Bool:
      return json(v.asBool());
    case Kind::Int:
      if (v.asInt() > kSafe || v.asInt() < -kSafe) return json(std::to_string(v.asInt()));
      return json(v.asInt());
    case Kind::Uint:
      if (v.asUint() > static_cast<std::uint64_t>(kSafe)) return json(std::to_string(v.asUint()));
      return json(v.asUint());
    case Kind::Double:
      if (!std::isfinite(v.asDouble())) return std::string("json: unsupported value: NaN or Inf");
      return json(v.asDouble());
    case Kind::String:
      return json(v.str());
    case Kind::Bytes:
      return json(base64Encode(v.str()));
    case Kind::List: {
      json a = json::array();
      for (std::size_t i = 0; i < v.asList().size(); ++i) {
        auto e = toJson(v.asList().at(i));
        if (auto* m = std::get_if<std::string>(&e)) return *m;
        a.push_back(std::move(std::get<json>(e)));
      }
      return a;
    }
    case Kind::Map: {
      json o = json::object();
      const auto& m = v.asMap();
      for (std::size_t i = 0; i < m.size(); ++i) {
        const Value k = m.keyAt(i);
        if (k.kind() != Kind::String)
          return std::string("unsupported map key type for JSON: ") + typeNameOf(k);
        auto e = toJson(m.valueAt(i));
        if (auto* msg = std::get_if<std::string>(&e)) return *msg;
        o[k.str()] = std::move(std::get<json>(e));
      }
      return o;
    }
    case Kind::Duration: {
      const std::int64_t ns = v.durationNanos();
      const std::int64_t secs = ns / 1000000000, frac = ns % 1000000000;
      std::string s = (ns < 0 && secs == 0 ? "-" : "") + std::to_string(secs);
      if (frac) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%09lld", static_cast<long long>(frac < 0 ? -frac : frac));
        std::string f = buf;
        while (f.size() > 3 && f.compare(f.size() - 3, 3, "000") == 0) f.resize(f.size() - 3);
        s += "." + f;
      }
      return json(s + "s");
    }
    case Kind::Timestamp: {
      std::string s = formatRfc3339({v.timestampSeconds(), 0});
      if (v.timestampNanos()) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%09d", v.timestampNanos());
        std::string f = buf;
        while (f.size() > 3 && f.compare(f.size() - 3, 3, "000") == 0) f.resize(f.size() - 3);
        s = s.substr(0, s.size() - 1) + "." + f + "Z";
      }
      return json(s);
    }
    case Kind::Error:
      return v.str();
    default:
      return "unsupported value for JSON: " + typeNameOf(v);
  }
}

}  // namespace convcheck::cel
