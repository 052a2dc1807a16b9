#include "engine/upgrade/release_run.h"

#include "properties/checks/release_properties.h"

namespace convcheck {

const char* releaseOfProperty(const std::string& property) {
  return property == storeProperty().id || property == rollbackProperty().id ? "old" : "new";
}

}  // namespace convcheck
