#include "kube/apiserver/object_meta_restore.h"

#include <set>

#include "kube/apiserver/label_validation.h"
#include "kube/go/go_format.h"

namespace convcheck {

using nlohmann::json;

std::string restoreObjectMeta(const json& original, json& converted) {
  auto found = converted.find("metadata");
  if (found == converted.end()) return "missing metadata in converted object";
  if (!found->is_object())
    return "invalid metadata of type " + goTypeName(*found) + " in converted object";
  // The answer's metadata is replaced below: take it rather than copy it.
  json responseMetaData = std::move(*found);

  if (auto meta = original.find("metadata"); meta == original.end())
    converted["metadata"] = json::object();
  else
    converted["metadata"] = *meta;
  json& convertedMetaData = converted["metadata"];
  if (!convertedMetaData.is_object())
    return "invalid metadata of type " + goTypeName(convertedMetaData) + " in input object";

  const json noField = json::object();
  for (const char* field : {"labels", "annotations"}) {
    auto response = responseMetaData.find(field);
    if (response == responseMetaData.end() || response->is_null()) {
      convertedMetaData.erase(field);
      continue;
    }
    if (!response->is_object())
      return std::string("invalid metadata.") + field + " of type " + goTypeName(*response) +
             " in converted object";
    const json* originalField = &noField;
    if (auto it = convertedMetaData.find(field); it != convertedMetaData.end() && !it->is_null()) {
      if (!it->is_object())
        return std::string("invalid metadata.") + field + " of type " + goTypeName(*it) +
               " in original object";
      originalField = &*it;
    }
    bool somethingChanged = originalField->size() != response->size();
    for (const auto& [key, value] : response->items()) {
      if (!value.is_string())
        return std::string("metadata.") + field + "[" + key + "] must be a string, but is " +
               goTypeName(value) + " in converted object";
      auto before = originalField->find(key);
      if (before == originalField->end() || *before != value) somethingChanged = true;
    }
    if (somethingChanged) {
      std::vector<std::string> errors = std::string(field) == "labels"
                                            ? validateLabels(*response, "metadata.labels")
                                            : validateAnnotations(*response, "metadata.annotation");
      if (!errors.empty()) return aggregateErrors(errors);
    }
    convertedMetaData[field] = std::move(*response);
  }
  return "";
}

std::vector<SilentChange> revertedMetadata(const json& original, const json& converted,
                                           std::size_t index) {
  std::vector<SilentChange> out;
  const json empty = json::object();
  auto metaOf = [&](const json& object) -> const json& {
    if (!object.is_object()) return empty;
    auto it = object.find("metadata");
    return it != object.end() && it->is_object() ? *it : empty;
  };
  const json& before = metaOf(original);
  const json& after = metaOf(converted);
  std::set<std::string> keys;
  for (const auto& [k, v] : before.items()) keys.insert(k);
  for (const auto& [k, v] : after.items()) keys.insert(k);
  for (const auto& key : keys) {
    if (key == "labels" || key == "annotations") continue;
    auto b = before.find(key);
    auto a = after.find(key);
    const bool inBefore = b != before.end(), inAfter = a != after.end();
    if (inBefore && inAfter && *b == *a) continue;  // nlohmann compares numbers by value
    out.push_back({index, "metadata." + key, "reverted", inAfter ? *a : json(nullptr)});
  }
  return out;
}

}  // namespace convcheck
