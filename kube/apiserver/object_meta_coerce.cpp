#include "kube/apiserver/object_meta_coerce.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>

#include "kube/go/go_format.h"

namespace convcheck {
namespace {

using nlohmann::json;
using namespace std::string_view_literals;

const char* jsonKindName(const json& v) {
  if (v.is_object()) return "object";
  if (v.is_array()) return "array";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  return "number";
}

// --- metav1.Time: RFC 3339 in, RFC 3339 UTC seconds out -------------------------------------

std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civilFromDays(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

int daysIn(int month, int year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0))) return 29;
  return kDays[month - 1];
}

// time.Parse(time.RFC3339, s) followed by .UTC().Format(time.RFC3339).
std::optional<std::string> normaliseRfc3339(const std::string& s) {
  bool ok = true;
  auto num = [&](std::size_t pos, std::size_t len, int lo, int hi) {
    int x = 0;
    for (std::size_t i = pos; i < pos + len; ++i) {
      if (i >= s.size() || s[i] < '0' || s[i] > '9') {
        ok = false;
        return lo;
      }
      x = x * 10 + (s[i] - '0');
    }
    if (x < lo || x > hi) ok = false;
    return x;
  };
  if (s.size() < 20) return std::nullopt;
  int year = num(0, 4, 0, 9999), month = num(5, 2, 1, 12);
  int day = ok ? num(8, 2, 1, daysIn(month, year)) : 1;
  int hour = num(11, 2, 0, 23), minute = num(14, 2, 0, 59), second = num(17, 2, 0, 59);
  if (!ok || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':')
    return std::nullopt;
  std::size_t pos = 19;
  if (pos + 1 < s.size() && (s[pos] == '.' || s[pos] == ',') && s[pos + 1] >= '0' &&
      s[pos + 1] <= '9') {
    ++pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
  }
  std::string_view zone = std::string_view(s).substr(pos);
  std::int64_t offset = 0;
  if (zone != "Z") {
    if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':')
      return std::nullopt;
    int hh = num(pos + 1, 2, 0, 23), mm = num(pos + 4, 2, 0, 59);
    if (!ok) return std::nullopt;
    offset = (hh * 60 + mm) * 60 * (zone[0] == '-' ? -1 : 1);
  }
  std::int64_t total = daysFromCivil(year, unsigned(month), unsigned(day)) * 86400 + hour * 3600 +
                       minute * 60 + second - offset;
  std::int64_t days = total >= 0 ? total / 86400 : (total - 86399) / 86400;
  std::int64_t secs = total - days * 86400;
  std::int64_t y;
  unsigned m, d;
  civilFromDays(days, y, m, d);
  if (y < 0 || y > 9999) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lldZ",
                  static_cast<long long>(y), m, d, static_cast<long long>(secs / 3600),
                  static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
    return std::string(buf);
  }
  // The common case written digit by digit: every timestamp of every converted object's
  // metadata comes through here.
  std::string out = "0000-00-00T00:00:00Z";
  auto put = [&out](std::size_t at, std::size_t width, std::int64_t value) {
    for (std::size_t i = width; i > 0; --i, value /= 10)
      out[at + i - 1] = static_cast<char>('0' + value % 10);
  };
  put(0, 4, y);
  put(5, 2, m);
  put(8, 2, d);
  put(11, 2, secs / 3600);
  put(14, 2, secs / 60 % 60);
  put(17, 2, secs % 60);
  return out;
}

// --- ObjectMeta decoding ---------------------------------------------------------------------

// A field's name as Go's errors print it ("managedFields.time"): the prefix and the key, joined
// only when an error is written (decoding metadata is on every converted object's path).
struct FieldName {
  std::string_view prefix;
  std::string_view key;
  FieldName(const std::string& name) : key(name) {}  // NOLINT: a plain name converts
  FieldName(const char* name) : key(name) {}         // NOLINT
  FieldName(std::string_view p, std::string_view k) : prefix(p), key(k) {}
  std::string str() const { return std::string(prefix) + std::string(key); }
};

class MetaDecoder {
 public:
  std::string saved;  // first UnmarshalTypeError (decoding continues)
  std::string fatal;  // an UnmarshalJSON error (decoding stops)

  void typeError(const json& v, std::string_view structName, const FieldName& field,
                 std::string_view type) {
    if (saved.empty())
      saved = std::string("json: cannot unmarshal ") + jsonKindName(v) + " into Go struct field " +
              std::string(structName) + "." + field.str() + " of type " + std::string(type);
  }

  std::optional<std::string> string(const json& v, std::string_view structName,
                                    const FieldName& field, std::string_view type = "string") {
    if (v.is_string()) return v.get<std::string>();
    if (!v.is_null()) typeError(v, structName, field, type);
    return std::nullopt;
  }

  std::optional<std::int64_t> int64(const json& v, const std::string& field) {
    if (v.is_null()) return std::nullopt;
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (v.is_number_float()) {
      // json.Marshal writes an integral float64 below 1e21 as an integer literal.
      double d = v.get<double>();
      if (std::trunc(d) == d && std::fabs(d) < 9.2e18) return static_cast<std::int64_t>(d);
      if (saved.empty())
        saved = "json: cannot unmarshal number " + goFloatV(d) +
                " into Go struct field ObjectMeta." + field + " of type int64";
      return std::nullopt;
    }
    typeError(v, "ObjectMeta", field, "int64");
    return std::nullopt;
  }

  // metav1.Time.UnmarshalJSON; nullopt for null (zero time) and on error.
  std::optional<std::string> time(const json& v, std::string_view structName,
                                  const FieldName& field) {
    if (v.is_null() || !fatal.empty()) return std::nullopt;
    if (!v.is_string()) {
      fatal = std::string("json: cannot unmarshal ") + jsonKindName(v) + " into Go struct field " +
              std::string(structName) + "." + field.str() + " of type string";
      return std::nullopt;
    }
    const auto& text = v.get_ref<const std::string&>();
    auto normalised = normaliseRfc3339(text);
    if (!normalised)
      fatal = "parsing time " + goQuote(text) + " as \"2006-01-02T15:04:05Z07:00\": cannot parse " +
              goQuote(text) + " as \"2006\"";
    return normalised;
  }

  std::optional<json> stringMap(const json& v, const std::string& field) {
    if (v.is_null()) return std::nullopt;
    if (!v.is_object()) {
      typeError(v, "ObjectMeta", field, "map[string]string");
      return std::nullopt;
    }
    json out = json::object();
    for (const auto& [k, e] : v.items()) {
      if (e.is_string() || e.is_null())
        out[k] = e.is_string() ? e : json("");
      else
        typeError(e, "ObjectMeta", field, "string");
    }
    return out;
  }

  json ownerReference(const json& v) {
    json out = json::object();
    for (std::string_view f : {"apiVersion"sv, "kind"sv, "name"sv, "uid"sv}) {
      out[f] = "";
      if (auto it = v.find(f); it != v.end())
        if (auto s = string(*it, "OwnerReference", {"ownerReferences.", f},
                            f == "uid" ? "types.UID" : "string"))
          out[f] = *s;
    }
    for (std::string_view f : {"blockOwnerDeletion"sv, "controller"sv}) {
      auto it = v.find(f);
      if (it == v.end() || it->is_null()) continue;
      if (it->is_boolean())
        out[f] = *it;
      else
        typeError(*it, "OwnerReference", {"ownerReferences.", f}, "bool");
    }
    return out;
  }

  json managedFieldsEntry(const json& v) {
    json out = json::object();
    for (const auto& [k, e] : v.items()) {
      const FieldName field{"managedFields.", k};
      if (k == "manager"sv || k == "apiVersion"sv || k == "fieldsType"sv || k == "subresource"sv ||
          k == "operation"sv) {
        auto s = string(e, "ManagedFieldsEntry", field,
                        k == "operation"sv ? "v1.ManagedFieldsOperationType" : "string");
        if (s && !s->empty()) out[k] = *s;
      } else if (k == "time"sv) {
        if (auto t = time(e, "ManagedFieldsEntry", field)) out[k] = *t;
      } else if (k == "fieldsV1"sv) {
        if (!e.is_null()) out[k] = e;
      }
    }
    return out;
  }

  template <typename Item>
  std::optional<json> list(const json& v, const std::string& field, std::string_view itemType,
                           Item item) {
    if (v.is_null()) return std::nullopt;
    if (!v.is_array()) {
      typeError(v, "ObjectMeta", field, "[]" + std::string(itemType));
      return std::nullopt;
    }
    json out = json::array();
    for (const auto& e : v) {
      if (auto decoded = item(e)) out.push_back(std::move(*decoded));
    }
    return out;
  }
};

}  // namespace

namespace {

// ObjectMeta decoded and written back, one member at a time in sorted key order (as json.Marshal
// of the map writes them before they are decoded).
class MetaRoundTrip {
 public:
  // Whether decoding has stopped (an UnmarshalJSON error): later members are not read.
  bool stopped() const { return !dec_.fatal.empty(); }

  void member(const std::string& k, const json& v) {
    // string_view literals: compared by length first, as each key meets every name below.
    if (k == "name"sv || k == "generateName"sv || k == "namespace"sv || k == "selfLink"sv ||
        k == "uid"sv || k == "resourceVersion"sv) {
      auto s = dec_.string(v, "ObjectMeta", k, k == "uid"sv ? "types.UID" : "string");
      if (s && !s->empty()) meta_[k] = std::move(*s);
    } else if (k == "generation"sv) {
      if (auto n = dec_.int64(v, k); n && *n != 0) meta_[k] = *n;
    } else if (k == "deletionGracePeriodSeconds"sv) {
      if (auto n = dec_.int64(v, k)) meta_[k] = *n;
    } else if (k == "creationTimestamp"sv) {
      if (auto t = dec_.time(v, "ObjectMeta", k)) creationTimestamp_ = std::move(*t);
    } else if (k == "deletionTimestamp"sv) {
      if (auto t = dec_.time(v, "ObjectMeta", k)) meta_[k] = std::move(*t);
    } else if (k == "labels"sv || k == "annotations"sv) {
      if (auto m = dec_.stringMap(v, k); m && !m->empty()) meta_[k] = std::move(*m);
    } else if (k == "finalizers"sv) {
      auto l = dec_.list(v, k, "string", [&](const json& e) -> std::optional<json> {
        if (e.is_string() || e.is_null()) return e.is_string() ? e : json("");
        dec_.typeError(e, "ObjectMeta", k, "string");
        return std::nullopt;
      });
      if (l && !l->empty()) meta_[k] = std::move(*l);
    } else if (k == "ownerReferences"sv) {
      auto l = dec_.list(v, k, "v1.OwnerReference", [&](const json& e) -> std::optional<json> {
        if (e.is_object()) return dec_.ownerReference(e);
        if (e.is_null()) return dec_.ownerReference(json::object());
        dec_.typeError(e, "ObjectMeta", k, "v1.OwnerReference");
        return std::nullopt;
      });
      if (l && !l->empty()) meta_[k] = std::move(*l);
    } else if (k == "managedFields"sv) {
      auto l = dec_.list(v, k, "v1.ManagedFieldsEntry", [&](const json& e) -> std::optional<json> {
        if (e.is_object()) return dec_.managedFieldsEntry(e);
        if (e.is_null()) return json::object();
        dec_.typeError(e, "ObjectMeta", k, "v1.ManagedFieldsEntry");
        return std::nullopt;
      });
      if (l && !l->empty()) meta_[k] = std::move(*l);
    }
  }

  ObjectMetaRoundTrip result() {
    ObjectMetaRoundTrip out;
    if (!dec_.fatal.empty() || !dec_.saved.empty()) {
      out.error = !dec_.fatal.empty() ? dec_.fatal : dec_.saved;
      return out;
    }
    meta_["creationTimestamp"] = std::move(creationTimestamp_);
    out.metadata = std::move(meta_);
    return out;
  }

 private:
  MetaDecoder dec_;
  json meta_ = json::object();
  json creationTimestamp_ = nullptr;
};

ObjectMetaRoundTrip notAnObjectMeta(const json& metadata) {
  ObjectMetaRoundTrip out;
  out.error = std::string("json: cannot unmarshal ") + jsonKindName(metadata) +
              " into Go value of type v1.ObjectMeta";
  return out;
}

}  // namespace

ObjectMetaRoundTrip objectMetaRoundTrip(const json& metadata) {
  if (!metadata.is_object() && !metadata.is_null()) return notAnObjectMeta(metadata);
  MetaRoundTrip trip;
  if (metadata.is_object())
    for (auto it = metadata.begin(); it != metadata.end() && !trip.stopped(); ++it)
      trip.member(it.key(), it.value());
  return trip.result();
}

ObjectMetaRoundTrip objectMetaRoundTrip(const json& original, const json& labelsAndAnnotations) {
  if (!original.is_object() && !original.is_null()) return notAnObjectMeta(original);
  static const json kEmpty = json::object();
  const json& base = original.is_object() ? original : kEmpty;
  const json& overlay = labelsAndAnnotations.is_object() ? labelsAndAnnotations : kEmpty;
  MetaRoundTrip trip;
  // Both in sorted key order (objects keep their members sorted): one merge walk, the original's
  // labels and annotations passed over for the overlay's.
  auto b = base.begin(), o = overlay.begin();
  while (!trip.stopped()) {
    while (b != base.end() && (b.key() == "labels"sv || b.key() == "annotations"sv)) ++b;
    const bool fromBase = b != base.end() && (o == overlay.end() || b.key() < o.key());
    if (fromBase) {
      trip.member(b.key(), b.value());
      ++b;
    } else if (o != overlay.end()) {
      trip.member(o.key(), o.value());
      ++o;
    } else {
      break;
    }
  }
  return trip.result();
}

namespace {

std::string invalidValue(const json& v) {
  if (v.is_null()) return goQuote("null");
  if (v.is_string()) return goQuote(v.get_ref<const std::string&>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_float()) return goFloatV(v.get<double>());
  if (v.is_number()) return v.dump();
  return goSharpV(v);
}

bool isEmbedded(const json* s) {
  if (!s || !s->is_object()) return false;
  auto it = s->find("x-kubernetes-embedded-resource");
  return it != s->end() && it->is_boolean() && it->get<bool>();
}

// Where a value sits, as field errors print it ("spec.template", "spec.map[key]", "items[2]"):
// a chain of steps up to the root, turned into text only for an error.
struct PathStep {
  enum class Kind { Root, Field, MapKey, Item } kind = Kind::Root;
  const PathStep* parent = nullptr;
  const std::string* key = nullptr;  // Field, MapKey
  std::size_t index = 0;             // Item

  std::string str() const {
    if (kind == Kind::Root) return "";
    std::string path = parent->str();
    if (kind == Kind::Field) return path.empty() ? *key : path + "." + *key;
    if (kind == Kind::MapKey) return path + "[" + *key + "]";
    return path + "[" + std::to_string(index) + "]";
  }
};

std::string coerce(const PathStep& path, json& x, const json* s) {
  using Kind = PathStep::Kind;
  if (!s || !s->is_object()) return "";
  if (x.is_object()) {
    const json* props = nullptr;
    if (auto it = s->find("properties"); it != s->end() && it->is_object()) props = &*it;
    const json* additional = nullptr;
    bool hasAdditional = false;
    if (auto it = s->find("additionalProperties"); it != s->end()) {
      hasAdditional = it->is_object() || it->is_boolean();
      if (it->is_object()) additional = &*it;
    }
    const bool embedded = isEmbedded(s);
    for (auto member = x.begin(); member != x.end(); ++member) {
      const std::string& k = member.key();
      json& v = member.value();
      const PathStep field{Kind::Field, &path, &k};
      if (embedded) {
        if ((k == "apiVersion" || k == "kind") && !v.is_string())
          return field.str() + ": Invalid value: " + invalidValue(v) + ": must be a string";
        if (k == "metadata") {
          ObjectMetaRoundTrip meta = objectMetaRoundTrip(v);
          if (!meta.error.empty())
            return field.str() + ": Invalid value: " + invalidValue(v) + ": " + meta.error;
          if (meta.metadata["creationTimestamp"].is_null())
            meta.metadata.erase("creationTimestamp");
          v = std::move(meta.metadata);
          continue;
        }
      }
      const json* prop = nullptr;
      if (props)
        if (auto it = props->find(k); it != props->end()) prop = &*it;
      if (prop) {
        if (auto err = coerce(field, v, prop); !err.empty()) return err;
      } else if (hasAdditional) {
        if (auto err = coerce({Kind::MapKey, &path, &k}, v, additional); !err.empty()) return err;
      }
    }
  } else if (x.is_array()) {
    const json* itemSchema = nullptr;
    if (auto it = s->find("items"); it != s->end() && it->is_object()) itemSchema = &*it;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (auto err = coerce({Kind::Item, &path, nullptr, i}, x[i], itemSchema); !err.empty())
        return err;
  }
  return "";
}

}  // namespace

bool coerceReadsRootMetadata(const json& schema) {
  if (!schema.is_object()) return false;
  if (isEmbedded(&schema) || schema.contains("additionalProperties")) return true;
  auto props = schema.find("properties");
  if (props == schema.end() || !props->is_object()) return false;
  auto meta = props->find("metadata");
  if (meta == props->end() || !meta->is_object()) return false;
  // `metadata: {type: object}` (as kubebuilder writes it): the walk passes over its members.
  return isEmbedded(&*meta) || meta->contains("properties") ||
         meta->contains("additionalProperties") || meta->contains("items");
}

std::string coerceEmbeddedResources(json& object, const json& schema) {
  return coerce(PathStep{}, object, schema.is_object() ? &schema : nullptr);
}

}  // namespace convcheck
