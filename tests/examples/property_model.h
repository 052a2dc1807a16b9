// A small in-process model of convcheck's property checks (SPEC §4), played against the example
// webhook's review handler: which properties one case fails. Used by tests/examples/faults_test.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "examples/webhook/faults.h"
#include "tests/examples/crd_schema.h"

namespace convcheck::example::testing_support {

// One case as convcheck's runner plays it: `batch` (objects at their source versions, none at
// `to`) converted to `to`. A single-object case is also judged for transitivity (through every
// third version) and edit-round-trip, where `edit` (a valid object at `to`) gives B its new
// spec/status; a batch is also judged for batch-independence (each object alone, reversed).
struct ModelCase {
  std::vector<nlohmann::json> batch;
  std::string to;
  nlohmann::json edit;
};

// kube-apiserver's label value rule: at most 63 characters, alphanumerics at both ends.
bool isValidLabelValue(const std::string& value);

// Structural pruning as kube-apiserver applies it to a custom resource: at the root apiVersion,
// kind and metadata stay; elsewhere object fields the schema's properties do not name go, unless
// x-kubernetes-preserve-unknown-fields is set.
void pruneUnknownFields(nlohmann::json& object, const nlohmann::json& schema);

class PropertyModel {
 public:
  explicit PropertyModel(const nlohmann::json& crd);  // a CRD as loadYamlAsJson reads it
  ~PropertyModel();
  PropertyModel(const PropertyModel&) = delete;
  PropertyModel& operator=(const PropertyModel&) = delete;

  const std::vector<std::string>& versions() const { return versions_; }
  std::string apiVersion(const std::string& version) const;  // "group/version"

  // The ids of the properties that fail when the webhook with `faults` handles `c`. As in
  // convcheck, a property whose precondition failed (a conversion it needs was rejected) is not
  // judged, and converts-valid-input, schema-valid and no-pruned-fields are judged on the
  // conversion of the generated objects (the forward exchange).
  std::set<std::string> failing(const FaultSet& faults, const ModelCase& c) const;

 private:
  struct Exchange;
  class Judge;

  std::string group_;
  std::vector<std::string> versions_;
  std::map<std::string, nlohmann::json> schemas_;
  std::map<std::string, std::unique_ptr<SchemaValidator>> validators_;
};

}  // namespace convcheck::example::testing_support
