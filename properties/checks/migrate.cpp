// The migrate property: objects rewritten to the new storage version keep what they read.
// Judged by engine/upgrade (PropertyScope::Release); listed in property_registry.cpp.
#include "properties/checks/release_properties.h"

namespace convcheck {

const Property& migrateProperty() {
  static const Property kProperty{
      .id = "migrate",
      .holdsWhen =
          "rewriting every stored object to the new storage version (a storage version migration, "
          "or any update) succeeds and keeps what every version read before",
      .scope = PropertyScope::Release,
      .calls = "convcheck upgrade: one per stored object, then one per version the new CRD serves",
      .severity = Severity::DataLoss};
  return kProperty;
}

}  // namespace convcheck
