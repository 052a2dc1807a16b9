#include "kube/apiserver/structural_defaults.h"

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

}  // namespace

bool applyStructuralDefaults(json& x, const json& s) {
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
          x[p.key()] = *d;
          changed = true;
        }
      }
    }
    const json* extra = additionalSchema(s);
    for (auto v = x.begin(); v != x.end(); ++v) {
      if (hasProps) {
        auto p = props->find(v.key());
        if (p != props->end()) {
          changed |= applyStructuralDefaults(*v, *p);
          continue;
        }
      }
      if (extra) changed |= applyStructuralDefaults(*v, *extra);
    }
  } else if (x.is_array()) {
    auto items = s.find("items");
    if (items != s.end() && items->is_object())
      for (auto& v : x) changed |= applyStructuralDefaults(v, *items);
  }
  return changed;
}

bool needsStructuralDefaults(const json& x, const json& s) {
  if (!s.is_object()) return false;
  if (x.is_object()) {
    auto props = s.find("properties");
    const bool hasProps = props != s.end() && props->is_object();
    if (hasProps)
      for (auto p = props->begin(); p != props->end(); ++p) {
        auto d = p->find("default");
        if (d == p->end() || d->is_null()) continue;
        auto v = x.find(p.key());
        if (v == x.end() || isNonNullableNull(*v, *p)) return true;
      }
    const json* extra = additionalSchema(s);
    for (auto v = x.begin(); v != x.end(); ++v) {
      if (hasProps) {
        auto p = props->find(v.key());
        if (p != props->end()) {
          if (needsStructuralDefaults(*v, *p)) return true;
          continue;
        }
      }
      if (extra && needsStructuralDefaults(*v, *extra)) return true;
    }
  } else if (x.is_array()) {
    auto items = s.find("items");
    if (items != s.end() && items->is_object())
      for (const auto& v : x)
        if (needsStructuralDefaults(v, *items)) return true;
  }
  return false;
}

}  // namespace convcheck
