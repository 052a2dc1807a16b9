#include "properties/checks/stored_form.h"

#include "kube/apiserver/number_normalise.h"
#include "kube/apiserver/object_meta_coerce.h"
#include "kube/apiserver/pruning.h"

namespace convcheck {

// Same steps, in the same order, as the API-server model applies to a converted object.
nlohmann::json storedForm(const nlohmann::json& object, const nlohmann::json& schema) {
  const auto meta = object.is_object() ? object.find("metadata") : object.end();
  const bool hasMeta = meta != object.end();
  nlohmann::json out;
  if (hasMeta && !coerceReadsRootMetadata(schema)) {
    // Pruning passes over the root metadata and the schema's walk never reads it: the object is
    // copied without it, and the round-tripped metadata put in afterwards (no copy that is
    // replaced).
    out = nlohmann::json::object();
    for (auto it = object.begin(); it != object.end(); ++it)
      if (it != meta) out.emplace(it.key(), it.value());
  } else {
    out = object;
  }
  nlohmann::json roundTripped;
  if (hasMeta) {
    ObjectMetaRoundTrip roundTrip = objectMetaRoundTrip(*meta);
    roundTripped = roundTrip.error.empty() ? std::move(roundTrip.metadata) : *meta;
  }
  if (!schema.is_null()) {
    pruneUnknownFields(out, schema, true);
    pruneNonNullableNulls(out, schema);
  }
  coerceEmbeddedResources(out, schema);
  if (hasMeta) out["metadata"] = std::move(roundTripped);
  return normaliseNumbers(std::move(out));
}

}  // namespace convcheck
