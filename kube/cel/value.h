// CEL runtime values: the standard types (null, bool, int, uint, double, string, bytes, list, map,
// duration, timestamp, type, optional, error) plus opaque Kubernetes types (IP, CIDR, URL,
// quantity). Used by the whole of kube/cel: the interpreter, its libraries and the JSON views of
// objects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace convcheck::cel {

enum class Kind : std::uint8_t {
  Null,
  Bool,
  Int,
  Uint,
  Double,
  String,
  Bytes,
  List,
  Map,
  Duration,
  Timestamp,
  Type,
  Optional,
  Error,
  Opaque,
};

class Value;
class ListImpl;
class MapImpl;
class OpaqueImpl;

class Value {
 public:
  Value() = default;  // null
  static Value null() { return Value(); }
  static Value boolean(bool b);
  static Value integer(std::int64_t i);
  static Value uinteger(std::uint64_t u);
  static Value dbl(double d);
  static Value string(std::string s);
  // A string owned by someone who outlives every evaluation that sees it (a JSON document).
  static Value borrowedString(const std::string* s);
  static Value bytes(std::string b);
  static Value list(std::shared_ptr<const ListImpl> l);
  static Value list(std::vector<Value> items);
  static Value map(std::shared_ptr<const MapImpl> m);
  static Value duration(std::int64_t nanos);
  static Value timestamp(std::int64_t seconds, std::int32_t nanos);
  static Value type(std::string name);
  static Value optionalOf(Value v);
  static Value optionalNone();
  static Value error(std::string message);
  static Value opaque(std::shared_ptr<const OpaqueImpl> o);

  Kind kind() const { return kind_; }
  bool isError() const { return kind_ == Kind::Error; }
  bool isNumber() const {
    return kind_ == Kind::Int || kind_ == Kind::Uint || kind_ == Kind::Double;
  }

  bool asBool() const { return n_.b; }
  std::int64_t asInt() const { return n_.i; }
  std::uint64_t asUint() const { return n_.u; }
  double asDouble() const { return n_.d; }
  // String, bytes, type name or error message.
  const std::string& str() const { return *s_; }
  const ListImpl& asList() const { return *static_cast<const ListImpl*>(p_.get()); }
  const MapImpl& asMap() const { return *static_cast<const MapImpl*>(p_.get()); }
  const OpaqueImpl& asOpaque() const { return *static_cast<const OpaqueImpl*>(p_.get()); }
  std::shared_ptr<const void> shared() const { return p_; }
  std::int64_t durationNanos() const { return n_.i; }
  std::int64_t timestampSeconds() const { return n_.i; }
  std::int32_t timestampNanos() const { return nanos_; }
  // Optional: present or not, and its value.
  bool hasValue() const { return kind_ == Kind::Optional && p_ != nullptr; }
  const Value& optionalValue() const { return *static_cast<const Value*>(p_.get()); }

 private:
  Kind kind_ = Kind::Null;
  union {
    bool b;
    std::int64_t i;
    std::uint64_t u;
    double d;
  } n_{};
  std::int32_t nanos_ = 0;
  std::shared_ptr<const void> p_;
  const std::string* s_ = nullptr;
};

// A list, held as a vector or viewed in place (a JSON array).
class ListImpl {
 public:
  virtual ~ListImpl() = default;
  virtual std::size_t size() const = 0;
  virtual Value at(std::size_t i) const = 0;
  // x-kubernetes-list-type of the schema behind it: "set" lists compare ignoring order, "map"
  // lists by their keys; "" for every other list.
  virtual const std::string& listType() const;
  virtual const std::vector<std::string>* mapKeys() const { return nullptr; }
};

class VectorList final : public ListImpl {
 public:
  explicit VectorList(std::vector<Value> items) : items_(std::move(items)) {}
  std::size_t size() const override { return items_.size(); }
  Value at(std::size_t i) const override { return items_[i]; }

 private:
  std::vector<Value> items_;
};

// A map (string, int, uint or bool keys), or an object of a schema with properties (string keys;
// selecting an absent field is an error, as for maps).
class MapImpl {
 public:
  virtual ~MapImpl() = default;
  virtual std::size_t size() const = 0;
  virtual std::optional<Value> find(const Value& key) const = 0;
  virtual Value keyAt(std::size_t i) const = 0;
  virtual Value valueAt(std::size_t i) const = 0;
  // Faster lookup by a field name.
  virtual std::optional<Value> field(const std::string& name) const;
  virtual bool isObject() const { return false; }
};

class VectorMap final : public MapImpl {
 public:
  explicit VectorMap(std::vector<std::pair<Value, Value>> entries) : entries_(std::move(entries)) {}
  std::size_t size() const override { return entries_.size(); }
  std::optional<Value> find(const Value& key) const override;
  Value keyAt(std::size_t i) const override { return entries_[i].first; }
  Value valueAt(std::size_t i) const override { return entries_[i].second; }

 private:
  std::vector<std::pair<Value, Value>> entries_;
};

// A Kubernetes library type (net.IP, net.CIDR, url, quantity, format, semver).
class OpaqueImpl {
 public:
  virtual ~OpaqueImpl() = default;
  virtual const char* typeName() const = 0;
  virtual bool equals(const OpaqueImpl& other) const = 0;
  // What string(x) gives, when the type has a text form.
  virtual std::optional<std::string> text() const { return std::nullopt; }
};

// The CEL type name of a value ("int", "list", "map", "google.protobuf.Duration", "net.IP", …).
std::string typeNameOf(const Value& v);

// CEL equality (heterogeneous numbers compare by value; lists and maps element-wise; set and
// map lists of a schema ignore order). Returns an error value when an element compares to one.
Value equals(const Value& a, const Value& b);
// The same as a plain bool, false when either side is an error.
bool equalValues(const Value& a, const Value& b);

// <, 0, > for ordered values of comparable kinds; nullopt for kinds that have no order.
std::optional<int> compare(const Value& a, const Value& b);

// A debugging and message form ("[1, 'a']", "{'k': 2}", "duration(\"1s\")").
std::string debugString(const Value& v);

}  // namespace convcheck::cel
