// The properties of two releases (PropertyScope::Release): the steps of an upgrade that
// `convcheck upgrade` plays (store, read after upgrade, migrate, roll back, the CRD change) and the
// one `convcheck diff` checks (the same behaviour). Each is defined in the file named after it and
// listed in property_registry.cpp; engine/upgrade judges them and names its findings by their ids.
#pragma once

#include "properties/checks/property.h"

namespace convcheck {

const Property& storeProperty();
const Property& readAfterUpgradeProperty();
const Property& migrateProperty();
const Property& rollbackProperty();
const Property& crdChangeProperty();
const Property& sameBehaviourProperty();

}  // namespace convcheck
