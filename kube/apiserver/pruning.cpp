#include "kube/apiserver/pruning.h"

#include <algorithm>

namespace convcheck {
namespace {

using nlohmann::json;

bool flag(const json* s, const char* key) {
  if (!s || !s->is_object()) return false;
  auto it = s->find(key);
  return it != s->end() && it->is_boolean() && it->get<bool>();
}

bool isMetaField(const std::string& k) {
  return k == "apiVersion" || k == "kind" || k == "metadata";
}

// Structural.Properties[k], or nullptr.
const json* property(const json* s, const std::string& k) {
  if (!s || !s->is_object()) return nullptr;
  auto props = s->find("properties");
  if (props == s->end() || !props->is_object()) return nullptr;
  auto it = props->find(k);
  return it == props->end() ? nullptr : &*it;
}

// Structural.AdditionalProperties: present when the keyword is a schema or a boolean; `schema`
// is its Structural (nullptr for a boolean).
bool additionalProperties(const json* s, const json*& schema) {
  schema = nullptr;
  if (!s || !s->is_object()) return false;
  auto it = s->find("additionalProperties");
  if (it == s->end()) return false;
  if (it->is_object()) {
    schema = &*it;
    return true;
  }
  return it->is_boolean();
}

// Structural.Items (a single schema only).
const json* items(const json* s) {
  if (!s || !s->is_object()) return nullptr;
  auto it = s->find("items");
  return it != s->end() && it->is_object() ? &*it : nullptr;
}

std::string child(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}
std::string index(const std::string& parent, std::size_t i) {
  return parent + "[" + std::to_string(i) + "]";
}

class Pruner {
 public:
  std::vector<PrunedField> pruned;

  // prune(x, s) with `embedded` standing for s.XEmbeddedResource (the root clone sets it).
  void prune(json& x, const json* s, bool embedded, const std::string& path) {
    if (s && flag(s, "x-kubernetes-preserve-unknown-fields"))
      return skipPrune(x, s, embedded, path);
    if (x.is_object()) {
      if (!s) {
        for (auto& [k, v] : x.items()) pruned.push_back({child(path, k), v});
        x = json::object();
        return;
      }
      std::vector<std::string> remove;
      for (auto& [k, v] : x.items()) {
        if (embedded && isMetaField(k)) continue;
        const json* additional = nullptr;
        if (const json* prop = property(s, k)) {
          prune(v, prop, flag(prop, "x-kubernetes-embedded-resource"), child(path, k));
        } else if (additionalProperties(s, additional)) {
          prune(v, additional, flag(additional, "x-kubernetes-embedded-resource"), child(path, k));
        } else {
          remove.push_back(k);
        }
      }
      for (const auto& k : remove) {
        pruned.push_back({child(path, k), x[k]});
        x.erase(k);
      }
    } else if (x.is_array()) {
      const json* itemSchema = s ? items(s) : nullptr;
      for (std::size_t i = 0; i < x.size(); ++i)
        prune(x[i], itemSchema, flag(itemSchema, "x-kubernetes-embedded-resource"), index(path, i));
    }
  }

  void skipPrune(json& x, const json* s, bool embedded, const std::string& path) {
    if (!s) return;
    if (x.is_object()) {
      for (auto& [k, v] : x.items()) {
        if (embedded && isMetaField(k)) continue;
        const json* additional = nullptr;
        if (const json* prop = property(s, k))
          prune(v, prop, flag(prop, "x-kubernetes-embedded-resource"), child(path, k));
        else if (additionalProperties(s, additional))
          prune(v, additional, flag(additional, "x-kubernetes-embedded-resource"), child(path, k));
      }
    } else if (x.is_array()) {
      const json* itemSchema = items(s);
      for (std::size_t i = 0; i < x.size(); ++i)
        skipPrune(x[i], itemSchema, flag(itemSchema, "x-kubernetes-embedded-resource"),
                  index(path, i));
    }
  }

  void pruneNulls(json& x, const json* s, bool root, const std::string& path) {
    if (x.is_object()) {
      std::vector<std::string> remove;
      for (auto& [k, v] : x.items()) {
        if (root && isMetaField(k)) continue;
        const json* fieldSchema = property(s, k);
        if (!fieldSchema) additionalProperties(s, fieldSchema);
        if (v.is_null() && fieldSchema && !flag(fieldSchema, "nullable") &&
            !(fieldSchema->is_object() && fieldSchema->contains("default") &&
              !(*fieldSchema)["default"].is_null()))
          remove.push_back(k);
        else
          pruneNulls(v, fieldSchema, false, child(path, k));
      }
      for (const auto& k : remove) {
        pruned.push_back({child(path, k), nullptr});
        x.erase(k);
      }
    } else if (x.is_array()) {
      const json* itemSchema = items(s);
      for (std::size_t i = 0; i < x.size(); ++i)
        pruneNulls(x[i], itemSchema, false, index(path, i));
    }
  }

  std::vector<PrunedField> sorted() {
    std::sort(pruned.begin(), pruned.end(),
              [](const PrunedField& a, const PrunedField& b) { return a.path < b.path; });
    return std::move(pruned);
  }
};

}  // namespace

std::vector<PrunedField> pruneUnknownFields(json& object, const json& schema, bool isResourceRoot) {
  Pruner pruner;
  const json empty = json::object();
  const json* s = schema.is_object() ? &schema : (isResourceRoot ? &empty : nullptr);
  pruner.prune(object, s, isResourceRoot || flag(s, "x-kubernetes-embedded-resource"), "");
  return pruner.sorted();
}

std::vector<PrunedField> pruneNonNullableNulls(json& object, const json& schema) {
  Pruner pruner;
  pruner.pruneNulls(object, schema.is_object() ? &schema : nullptr, true, "");
  return pruner.sorted();
}

}  // namespace convcheck
