// kube-apiserver's structural defaulting (apiextensions-apiserver schema/defaulting Default): what
// fills `default` values into an object before the API server sends it to a webhook.
// Used by the case executor (every object sent) and by the round-trip baseline.
#pragma once

#include <nlohmann/json.hpp>

namespace convcheck {

// Fills every absent property, and every null property that is not `nullable`, whose schema has
// a `default`, with a copy of that default; then recurses into every property (the defaulted
// ones too), `additionalProperties` values and array items, as Default does. Only the
// structural parts of the schema count (properties, additionalProperties, items). Returns
// whether anything was filled in. A null or non-object `schema` does nothing.
bool applyStructuralDefaults(nlohmann::json& object, const nlohmann::json& schema);

// Whether applyStructuralDefaults would fill anything into `object`, without copying it: a batch
// that needs no defaults is sent as it is, shared with the call it came from.
bool needsStructuralDefaults(const nlohmann::json& object, const nlohmann::json& schema);

}  // namespace convcheck
