// The registry of every property, in SPEC §4 order: the one list `convcheck properties`,
// --properties, the case executor, JUnit/JSON names and the README table come from.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "properties/checks/property.h"

namespace convcheck {

const std::vector<Property>& propertyRegistry();
// nullptr for an unknown id.
const Property* findProperty(std::string_view id);
inline bool isKnownProperty(std::string_view id) { return findProperty(id) != nullptr; }
std::string_view scopeName(PropertyScope scope);
// What `convcheck properties` prints: one line per property (id, what holds, when judged, the
// calls it adds), or with `markdown` the README's table.
std::string propertyTable(bool markdown);

}  // namespace convcheck
