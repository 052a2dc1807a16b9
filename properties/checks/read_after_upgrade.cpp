// The read-after-upgrade property: stored objects read through the new release as through the old.
// Judged by engine/upgrade (PropertyScope::Release); listed in property_registry.cpp.
#include "properties/checks/release_properties.h"

namespace convcheck {

const Property& readAfterUpgradeProperty() {
  static const Property kProperty{
      .id = "read-after-upgrade",
      .holdsWhen =
          "every stored object reads the same through the new release (CRD and webhook) as through "
          "the old one at every version both serve, and without error at versions only the new one "
          "serves",
      .scope = PropertyScope::Release,
      .calls = "convcheck upgrade: one per stored object and version the new CRD serves",
      .severity = Severity::DataLoss};
  return kProperty;
}

}  // namespace convcheck
