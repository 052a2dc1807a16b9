// The CRD as tested, written back as an apiextensions.k8s.io/v1 manifest (JSON) so a reproduction
// bundle is self-contained. Used by the bundle writer; read back by the CRD loader on replay.
#pragma once

#include <nlohmann/json.hpp>

#include "kube/crd/crd.h"

namespace convcheck {

// Versions (served/storage/deprecated, schema, status subresource), names, scope, conversion
// (strategy, review versions, clientConfig with caBundle in base64) and status.storedVersions.
nlohmann::json crdManifest(const Crd& crd);

}  // namespace convcheck
