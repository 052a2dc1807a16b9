#include "kube/apiserver/structural_defaults.h"

#include <type_traits>

namespace convcheck {

using nlohmann::json;

namespace {

bool isNonNullableNull(const json& value, const json& schema) {
  return value.is_null() && !(schema.is_object() && schema.value("nullable", false) == true);
}

const json* additionalSchema(const json& schema) {
  auto it = schema.find("additionalProperties");
  return it != schema.end() && it->is_object() ? &*it : nullptr;
}

// One walk for both: with a mutable `x` it fills every default that is due and says whether it
// filled any; with a const `x` it only says whether one is due, at the first it finds.
template <typename Json>
bool walkDefaults(Json& x, const json& s) {
  constexpr bool fill = !std::is_const_v<Json>;
  if (!s.is_object()) return false;
  bool changed = false;
  if (x.is_object()) {
    auto props = s.find("properties");
    const bool hasProps = props != s.end() && props->is_object();
    if (hasProps) {
      for (auto p = props->begin(); p != props->end(); ++p) {
        auto d = p->find("default");
        if (d == p->end() || d->is_null()) continue;
        auto v = x.find(p.key());
        if (v == x.end() || isNonNullableNull(*v, *p)) {
          if constexpr (!fill)
            return true;
          else
            x[p.key()] = *d;
          changed = true;
        }
      }
    }
    const json* extra = additionalSchema(s);
    for (auto v = x.begin(); v != x.end(); ++v) {
      const json* child = extra;
      if (hasProps)
        if (auto p = props->find(v.key()); p != props->end()) child = &*p;
      if (child && walkDefaults(*v, *child)) {
        if constexpr (!fill) return true;
        changed = true;
      }
    }
  } else if (x.is_array()) {
    auto items = s.find("items");
    if (items != s.end() && items->is_object())
      for (auto& v : x)
        if (walkDefaults(v, *items)) {
          if constexpr (!fill) return true;
          changed = true;
        }
  }
  return changed;
}

}  // namespace

bool applyStructuralDefaults(json& x, const json& s) { return walkDefaults(x, s); }

bool needsStructuralDefaults(const json& x, const json& s) { return walkDefaults(x, s); }

}  // namespace convcheck
