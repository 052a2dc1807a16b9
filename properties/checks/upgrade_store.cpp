// The store property: the first step of an upgrade, objects stored by the old release.
// Judged by engine/upgrade (PropertyScope::Release); listed in property_registry.cpp.
#include "properties/checks/release_properties.h"

namespace convcheck {

const Property& storeProperty() {
  static const Property kProperty{
      .id = "store",
      .holdsWhen =
          "the old release stores every object: its webhook converts each to the old storage "
          "version, and reads it back at every version the old CRD serves",
      .scope = PropertyScope::Release,
      .calls = "convcheck upgrade: one per object written at another version, one per read",
      .severity = Severity::Rejected};
  return kProperty;
}

}  // namespace convcheck
