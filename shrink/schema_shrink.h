// Schema-directed shrinking of a whole custom resource that has no shrink tree (a user's object,
// a sample, a stored regression, or a generated object after its tree is exhausted): one edit at
// a time, largest first — remove a member, empty or halve a list or map, drop one item, then
// shorten strings toward minLength, move numbers toward the minimum or 0, true to false.
// Used by the case shrinker (and so by the runner and `convcheck minimize`).
#pragma once

#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "generators/schema_model.h"

namespace convcheck {

struct SimplerEdit {
  nlohmann::json::json_pointer at;
  bool remove = false;   // remove the member at `at`; else put `value` there
  nlohmann::json value;  // the simpler value
  int weight = 0;        // fields it removes (0 for shorter scalars)
};

// Every one-step simplification of `object` (a whole custom resource), biggest removals first,
// then scalar simplifications in document order. Never touches apiVersion and kind, never
// removes the metadata every stored object has (name, namespace, uid, creationTimestamp,
// generation), never changes uid or creationTimestamp. Edits are not checked against the schema
// (`root` only guides bounds): the caller keeps the valid ones.
std::vector<SimplerEdit> simplerEdits(const nlohmann::json& object, const SchemaNode* root);

nlohmann::json applyEdit(nlohmann::json object, const SimplerEdit& edit);

struct GreedyStats {
  int accepted = 0;
  int examined = 0;
};

// Greedy shrinking: walks the edits of the current object in order, keeps the first one whose
// result `accept`s, recomputes the edits and goes on from the same position; repeats passes until
// one accepts nothing, or `stop()`. Returns the smallest accepted object (`start` if none).
nlohmann::json greedyShrink(nlohmann::json start, const SchemaNode* root,
                            const std::function<bool(const nlohmann::json&)>& accept,
                            const std::function<bool()>& stop, GreedyStats* stats = nullptr);

}  // namespace convcheck
