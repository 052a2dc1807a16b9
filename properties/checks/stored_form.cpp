#include "properties/checks/stored_form.h"

#include "kube/apiserver/number_normalise.h"
#include "kube/apiserver/object_meta_coerce.h"
#include "kube/apiserver/pruning.h"

namespace convcheck {

// Same steps, in the same order, as the API-server model applies to a converted object.
nlohmann::json storedForm(const nlohmann::json& object, const nlohmann::json& schema) {
  nlohmann::json out = object;
  nlohmann::json meta;
  bool hasMeta = out.contains("metadata");
  if (hasMeta) {
    ObjectMetaRoundTrip roundTrip = objectMetaRoundTrip(out["metadata"]);
    meta = roundTrip.error.empty() ? roundTrip.metadata : out["metadata"];
  }
  if (!schema.is_null()) {
    pruneUnknownFields(out, schema, true);
    pruneNonNullableNulls(out, schema);
  }
  coerceEmbeddedResources(out, schema);
  if (hasMeta) out["metadata"] = std::move(meta);
  return normaliseNumbers(std::move(out));
}

}  // namespace convcheck
