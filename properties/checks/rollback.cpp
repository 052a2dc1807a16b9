// The rollback property: the old release reads what the new one wrote.
// Judged by engine/upgrade (PropertyScope::Release); listed in property_registry.cpp.
#include "properties/checks/release_properties.h"

namespace convcheck {

const Property& rollbackProperty() {
  static const Property kProperty{
      .id = "rollback",
      .holdsWhen =
          "the old release reads what the new one stored (the new storage version) as it read the "
          "objects before the upgrade",
      .scope = PropertyScope::Release,
      .calls = "convcheck upgrade: one per migrated object and version the old CRD serves",
      .severity = Severity::DataLoss};
  return kProperty;
}

}  // namespace convcheck
