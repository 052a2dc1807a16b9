#include "examples/webhook/object_converter.h"

#include <string>

#include "examples/webhook/api_version.h"
#include "examples/webhook/crontab_converter.h"
#include "examples/webhook/object_faults.h"
#include "examples/webhook/widget_converter.h"

namespace convcheck::example {

using nlohmann::json;

ConversionOutcome convertObject(const json& object, std::string_view desiredApiVersion,
                                const FaultSet& faults, std::size_t batchIndex, KindMode kinds) {
  if (!object.is_object())
    return ConversionOutcome::failure("object must be a JSON object, got " + object.dump());
  auto apiVersion = object.find("apiVersion");
  if (apiVersion == object.end() || !apiVersion->is_string())
    return ConversionOutcome::failure("apiVersion: missing or not a string");
  auto kind = object.find("kind");
  if (kind == object.end() || !kind->is_string())
    return ConversionOutcome::failure("kind: missing or not a string");

  const auto& source = apiVersion->get_ref<const std::string&>();
  if (source == desiredApiVersion)
    return ConversionOutcome::failure(
        "conversion from a version to itself should not call the webhook: " + source);
  auto from = parseApiVersion(source);
  if (!from) return ConversionOutcome::failure("apiVersion: cannot parse \"" + source + "\"");
  auto to = parseApiVersion(desiredApiVersion);
  if (!to)
    return ConversionOutcome::failure("desiredAPIVersion: cannot parse \"" +
                                      std::string(desiredApiVersion) + "\"");
  if (from->group != to->group)
    return ConversionOutcome::failure("cannot convert between groups: " + source + " -> " +
                                      std::string(desiredApiVersion));

  const auto& kindName = kind->get_ref<const std::string&>();
  ConversionOutcome outcome;
  std::string_view storageVersion;
  if (kinds == KindMode::identity) {
    outcome.object = object;
    outcome.object["apiVersion"] = std::string(desiredApiVersion);
  } else if (from->group == kCronTabGroup && kindName == kCronTabKind) {
    outcome = convertCronTab(object, from->version, to->version, faults);
    storageVersion = kCronTabStorageVersion;
  } else if (from->group == kWidgetGroup && kindName == kWidgetKind) {
    outcome = convertWidget(object, from->version, to->version, faults,
                            kinds == KindMode::release2 ? 2 : 1);
    storageVersion = kWidgetHubVersion;
  } else {
    return ConversionOutcome::failure("no converter for kind " + kindName + " in group " +
                                      from->group);
  }
  const ObjectFaultContext context{
      batchIndex, from->version == storageVersion || to->version == storageVersion};
  if (outcome.ok()) applyObjectFaults(object, outcome.object, faults, context);
  return outcome;
}

}  // namespace convcheck::example
