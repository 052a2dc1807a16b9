// How big a test case is: objects, fields (JSON values below each object's root), bytes, and the
// fields a schema does not require. Used by the shrinker (progress, reports) and its tests.
#pragma once

#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

#include "generators/schema_model.h"
#include "kube/apiserver/shared_objects.h"

namespace convcheck {

struct BatchSize {
  int objects = 0;
  int fields = 0;         // object members and array items at any depth, roots not counted
  std::size_t bytes = 0;  // compact JSON of every object
};

// Object members and array items at any depth below `value` (`value` itself not counted).
int fieldCount(const nlohmann::json& value);

BatchSize measureBatch(const std::vector<nlohmann::json>& batch);
BatchSize measureBatch(const SharedObjects& batch);

// Fields of a whole custom resource beyond the ones it must have: members a schema node does
// not list in `required`, map entries, unknown (preserved) fields and array items beyond
// `minItems`, at any depth. Always required: apiVersion, kind, metadata, and in metadata the
// fields every stored object has (name, uid, creationTimestamp, generation, and namespace for
// namespaced kinds). `root` may be null (then every field below spec/status counts).
int optionalFieldCount(const nlohmann::json& object, const SchemaNode* root);

}  // namespace convcheck
