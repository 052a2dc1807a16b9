// ObjectMeta rules for stored objects (SPEC §2) and embedded resources: names, namespace, uid,
// creationTimestamp, generation, labels/annotations as ValidateLabels/ValidateAnnotations,
// finalizers, ownerReferences, managedFields. Used by validity.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "generators/schema_check.h"

namespace convcheck {

struct MetadataRules {
  bool namespaced = true;
  bool embedded = false;  // metadata of an x-kubernetes-embedded-resource: every field optional
};

void checkObjectMeta(const nlohmann::json& metadata, const MetadataRules& rules,
                     const std::string& path, std::vector<Violation>& out);

// Labels and annotations as kube-apiserver validates them (also used on converted objects).
void checkLabels(const nlohmann::json& labels, const std::string& path,
                 std::vector<Violation>& out);
void checkAnnotations(const nlohmann::json& annotations, const std::string& path,
                      std::vector<Violation>& out);

}  // namespace convcheck
