// Structural-schema pruning as kube-apiserver applies it to every converted object
// (apiextensions pruning.PruneWithOptions and defaulting.PruneNonNullableNullsWithoutDefaults),
// reporting what it removed. Used by the API-server model and by properties (no-pruned-fields).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

struct PrunedField {
  std::string path;      // "spec.nickname", "spec.items[2].x", "garbage"
  nlohmann::json value;  // the value that was removed
};

// Removes every object field the structural schema (an openAPIV3Schema, read as a structural
// schema) does not specify. Only `properties`, `additionalProperties` (a schema, or a boolean:
// then its values keep scalars but lose all object fields, as Go does), `items` (a single
// schema), `x-kubernetes-preserve-unknown-fields: true` (keep unknown fields, still prune inside
// known ones) and `x-kubernetes-embedded-resource: true` (keep apiVersion, kind, metadata
// untouched) count; allOf/anyOf/oneOf/not never add properties. With `isResourceRoot` the root
// behaves as an embedded resource (apiVersion, kind and metadata are kept). Scalars are never
// type-checked. A null `schema` is Go's nil schema (at a resource root: keep only apiVersion, kind
// and metadata). Returns the removed fields sorted by path.
std::vector<PrunedField> pruneUnknownFields(nlohmann::json& object, const nlohmann::json& schema,
                                            bool isResourceRoot = true);

// Removes object fields whose value is null when their schema (from properties or
// additionalProperties) is neither `nullable: true` nor has a non-null `default`. Nulls inside
// arrays stay. The root's apiVersion, kind and metadata are left alone (the API server restores
// them afterwards anyway). Returns the removed fields sorted by path.
std::vector<PrunedField> pruneNonNullableNulls(nlohmann::json& object,
                                               const nlohmann::json& schema);

}  // namespace convcheck
