// The crd-change property: what kube-apiserver does with the CRD change and the stored objects.
// Judged by engine/upgrade (PropertyScope::Release); listed in property_registry.cpp.
#include "properties/checks/release_properties.h"

namespace convcheck {

const Property& crdChangeProperty() {
  static const Property kProperty{
      .id = "crd-change",
      .holdsWhen =
          "the new CRD keeps every version objects are stored in or clients still request, moves "
          "the storage version with a migration step, and its schemas accept every stored object "
          "after conversion (the next update of each)",
      .scope = PropertyScope::Release,
      .calls = "none beyond the reads of read-after-upgrade",
      .severity = Severity::Rejected};
  return kProperty;
}

}  // namespace convcheck
