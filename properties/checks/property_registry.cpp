#include "properties/checks/property_registry.h"

#include <fmt/format.h>

#include "properties/checks/exchange_view.h"
#include "properties/checks/output_checks.h"
#include "properties/checks/release_properties.h"

namespace convcheck {

// Each property is defined in the file of the same name; adding one = its file, a line here
// (declaration) and its place in the list below.
const Property& responseEnvelopeProperty();
const Property& uidEchoProperty();
const Property& objectCountProperty();
const Property& orderProperty();
const Property& targetVersionProperty();
const Property& kindUnchangedProperty();
const Property& metadataImmutableProperty();
const Property& labelsAnnotationsValidProperty();
const Property& convertsValidInputProperty();
const Property& roundTripProperty();
const Property& editRoundTripProperty();
const Property& transitivityProperty();
const Property& determinismProperty();
const Property& batchIndependenceProperty();
const Property& schemaValidProperty();
const Property& noPrunedFieldsProperty();
const Property& tlsProperty();
const Property& timeoutProperty();
// The properties of two releases are declared in release_properties.h.

const std::vector<Property>& propertyRegistry() {
  static const std::vector<Property> kRegistry = {
      responseEnvelopeProperty(),
      uidEchoProperty(),
      objectCountProperty(),
      orderProperty(),
      targetVersionProperty(),
      kindUnchangedProperty(),
      metadataImmutableProperty(),
      labelsAnnotationsValidProperty(),
      convertsValidInputProperty(),
      roundTripProperty(),
      editRoundTripProperty(),
      transitivityProperty(),
      determinismProperty(),
      batchIndependenceProperty(),
      schemaValidProperty(),
      noPrunedFieldsProperty(),
      tlsProperty(),
      timeoutProperty(),
      storeProperty(),
      readAfterUpgradeProperty(),
      migrateProperty(),
      rollbackProperty(),
      crdChangeProperty(),
      sameBehaviourProperty(),
  };
  return kRegistry;
}

const Property* findProperty(std::string_view id) {
  for (const auto& p : propertyRegistry())
    if (p.id == id) return &p;
  return nullptr;
}

std::string_view scopeName(PropertyScope scope) {
  switch (scope) {
    case PropertyScope::Exchange:
      return "every answer";
    case PropertyScope::Output:
      return "the forward answer";
    case PropertyScope::Case:
      return "calls of its own";
    case PropertyScope::Endpoint:
      return "the endpoint, once per run";
    case PropertyScope::Release:
      return "two releases (upgrade, diff)";
  }
  return "";
}

std::string propertyTable(bool markdown) {
  std::string out;
  if (markdown) out += "| id | holds when | judged on | calls it adds |\n|---|---|---|---|\n";
  for (const auto& p : propertyRegistry()) {
    if (markdown)
      out +=
          fmt::format("| `{}` | {} | {} | {} |\n", p.id, p.holdsWhen, scopeName(p.scope), p.calls);
    else
      out += fmt::format("{:<26} {}\n{:<26} judged on {}; calls it adds: {}\n", p.id, p.holdsWhen,
                         "", scopeName(p.scope), p.calls);
  }
  return out;
}

std::vector<CheckResult> checkExchange(const ExchangeRef& exchange, const CaseContext& context) {
  const ExchangeView view(exchange, context);
  std::vector<CheckResult> results;
  for (const auto& p : propertyRegistry())
    if (p.scope == PropertyScope::Exchange) results.push_back(p.judgeExchange(view));
  return results;
}

std::vector<CheckResult> checkOutput(const ExchangeRef& exchange, const CaseContext& context,
                                     const TargetValidator& validate) {
  std::vector<CheckResult> results;
  for (const auto& p : propertyRegistry())
    if (p.scope == PropertyScope::Output)
      results.push_back(p.judgeOutput(exchange, context, validate));
  return results;
}

}  // namespace convcheck
