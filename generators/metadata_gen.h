// Generators for stored ObjectMeta (SPEC §2): DNS-1123 names, namespace, uid, creationTimestamp,
// generation ≥ 1, managedFields, labels/annotations valid per Kubernetes rules, finalizers,
// ownerReferences, resourceVersion sometimes. Used by ObjectGenerator and schema_gen (embedded).
#pragma once

#include <string>
#include <vector>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "generators/schema_model.h"

namespace convcheck {

struct MetadataOptions {
  bool namespaced = true;
  std::vector<std::string> apiVersions;  // "group/version" of the CRD's versions (managedFields)
  bool minimal = false;                  // name, namespace, uid, creationTimestamp, generation only
  double optionalProbability = 0.5;      // for labels, annotations, finalizers, …
  SchemaNodePtr nameSchema;              // openAPIV3Schema metadata.properties.name, if restricted
};

rc::Gen<nlohmann::json> objectMeta(const MetadataOptions& options);

// Metadata of an embedded resource (x-kubernetes-embedded-resource): name, namespace, labels and
// annotations, each optional.
rc::Gen<nlohmann::json> embeddedObjectMeta();

// Pieces, also used on their own.
// DNS-1123 subdomains: word-like ones (sometimes ending in digits), and ones with every character
// the rule allows in every position it allows it, of 1, 63 or 253 characters now and then.
rc::Gen<std::string> dns1123Names();
rc::Gen<std::string> namespaceNames();     // DNS-1123 labels, the same way (up to 63 characters)
rc::Gen<nlohmann::json> labelMaps();       // non-empty, valid keys and values
rc::Gen<nlohmann::json> annotationMaps();  // non-empty, valid keys, free-form values
rc::Gen<std::string> uids();               // RFC 4122 version 4, lowercase

}  // namespace convcheck
