#include "shrink/object_size.h"

#include <set>
#include <string>

namespace convcheck {

using nlohmann::json;

int fieldCount(const json& value) {
  if (!value.is_structured()) return 0;
  int n = 0;
  for (const auto& child : value) n += 1 + fieldCount(child);
  return n;
}

namespace {

template <typename Objects>
BatchSize measure(const Objects& batch) {
  BatchSize size;
  size.objects = static_cast<int>(batch.size());
  for (const auto& object : batch) {
    size.fields += fieldCount(object);
    size.bytes += object.dump(-1, ' ', false, json::error_handler_t::replace).size();
  }
  return size;
}

}  // namespace

BatchSize measureBatch(const std::vector<json>& batch) { return measure(batch); }
BatchSize measureBatch(const SharedObjects& batch) { return measure(batch); }

namespace {

// Counts the optional fields below `value`, whose schema is `node` (null: unknown, all optional).
int optionalBelow(const json& value, const SchemaNode* node) {
  if (value.is_object()) {
    int n = 0;
    for (auto it = value.begin(); it != value.end(); ++it) {
      const SchemaNode* child = nullptr;
      bool required = false;
      if (node) {
        if (const SchemaNode* p = node->property(it.key())) {
          child = p;
          required = node->isRequired(it.key());
        } else if (node->additionalProperties) {
          child = node->additionalProperties.get();
        }
      }
      n += (required ? 0 : 1) + optionalBelow(it.value(), child);
    }
    return n;
  }
  if (value.is_array()) {
    int n = 0;
    const std::size_t minItems = node && node->minItems ? *node->minItems : 0;
    const SchemaNode* items = node ? node->items.get() : nullptr;
    for (std::size_t i = 0; i < value.size(); ++i)
      n += (i < minItems ? 0 : 1) + optionalBelow(value[i], items);
    return n;
  }
  return 0;
}

}  // namespace

int optionalFieldCount(const json& object, const SchemaNode* root) {
  if (!object.is_object()) return 0;
  static const std::set<std::string> kStoredMetadata = {"name", "namespace", "uid",
                                                        "creationTimestamp", "generation"};
  int n = 0;
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string& key = it.key();
    if (key == "apiVersion" || key == "kind") continue;
    if (key == "metadata") {
      if (!it->is_object()) continue;
      for (auto m = it->begin(); m != it->end(); ++m)
        if (!kStoredMetadata.count(m.key())) n += 1 + fieldCount(m.value());
      continue;
    }
    const SchemaNode* child = root ? root->property(key) : nullptr;
    bool required = root && root->isRequired(key);
    n += (required ? 0 : 1) + optionalBelow(it.value(), child);
  }
  return n;
}

}  // namespace convcheck
