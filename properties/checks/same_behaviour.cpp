// The same-behaviour property: two webhooks for one CRD answer alike.
// Judged by engine/upgrade (PropertyScope::Release); listed in property_registry.cpp.
#include "properties/checks/release_properties.h"

namespace convcheck {

const Property& sameBehaviourProperty() {
  static const Property kProperty{.id = "same-behaviour",
                                  .holdsWhen =
                                      "the new webhook answers every review as the old one does "
                                      "(the same objects converted, the same rejections)",
                                  .scope = PropertyScope::Release,
                                  .calls = "convcheck diff: each review to both webhooks",
                                  .severity = Severity::DataLoss};
  return kProperty;
}

}  // namespace convcheck
