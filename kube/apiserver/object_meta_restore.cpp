#include "kube/apiserver/object_meta_restore.h"

#include "kube/apiserver/label_validation.h"
#include "kube/go/go_format.h"

namespace convcheck {

using nlohmann::json;
using namespace std::string_view_literals;

namespace {

// restoreObjectMeta, with or without copying the original's metadata other than labels and
// annotations into converted.metadata (`copyOriginal`): the checks and errors are the same.
std::string restore(const json& original, json& converted, bool copyOriginal) {
  auto found = converted.find("metadata");
  if (found == converted.end()) return "missing metadata in converted object";
  if (!found->is_object())
    return "invalid metadata of type " + goTypeName(*found) + " in converted object";
  // The answer's metadata is replaced below: take it rather than copy it.
  json responseMetaData = std::move(*found);

  static const json kNoMetadata = json::object();  // made once: this runs on every object
  const json* originalMetaData = &kNoMetadata;
  if (auto meta = original.find("metadata"); meta != original.end()) originalMetaData = &*meta;
  if (!originalMetaData->is_object()) {
    converted["metadata"] = *originalMetaData;
    return "invalid metadata of type " + goTypeName(*originalMetaData) + " in input object";
  }
  // A copy of the original's metadata, but for labels and annotations: those come from the
  // answer or go (compared with the original's, read in place).
  json& convertedMetaData = converted["metadata"] = json::object();
  if (copyOriginal)
    for (auto it = originalMetaData->begin(); it != originalMetaData->end(); ++it)
      if (it.key() != "labels"sv && it.key() != "annotations"sv)
        convertedMetaData.emplace(it.key(), it.value());

  static const json kNoField = json::object();
  for (const char* field : {"labels", "annotations"}) {
    auto response = responseMetaData.find(field);
    if (response == responseMetaData.end() || response->is_null()) continue;
    if (!response->is_object())
      return std::string("invalid metadata.") + field + " of type " + goTypeName(*response) +
             " in converted object";
    const json* originalField = &kNoField;
    if (auto it = originalMetaData->find(field); it != originalMetaData->end() && !it->is_null()) {
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

}  // namespace

std::string restoreObjectMeta(const json& original, json& converted) {
  return restore(original, converted, true);
}

std::string restoreLabelsAndAnnotations(const json& original, json& converted) {
  return restore(original, converted, false);
}

std::vector<SilentChange> revertedMetadata(const json& original, const json& converted,
                                           std::size_t index) {
  std::vector<SilentChange> out;
  static const json kEmpty = json::object();
  auto metaOf = [&](const json& object) -> const json& {
    if (!object.is_object()) return kEmpty;
    auto it = object.find("metadata");
    return it != object.end() && it->is_object() ? *it : kEmpty;
  };
  const json& before = metaOf(original);
  const json& after = metaOf(converted);
  // Both key sets in sorted order (objects keep their members sorted): one merge walk.
  auto b = before.begin(), a = after.begin();
  while (b != before.end() || a != after.end()) {
    const bool inBefore = b != before.end() && (a == after.end() || b.key() <= a.key());
    const bool inAfter = a != after.end() && (b == before.end() || a.key() <= b.key());
    const std::string& key = inBefore ? b.key() : a.key();
    // nlohmann compares numbers by value
    if (key != "labels"sv && key != "annotations"sv && !(inBefore && inAfter && *b == *a))
      out.push_back({index, "metadata." + key, "reverted", inAfter ? *a : json(nullptr)});
    if (inBefore) ++b;
    if (inAfter) ++a;
  }
  return out;
}

}  // namespace convcheck
