// Generators for stored ObjectMeta (SPEC §2): DNS-1123 names, namespace, uid, creationTimestamp,
// generation ≥ 1, managedFields (filled in by applied_metadata), labels/annotations valid per
// Kubernetes rules and as tools set them, finalizers, ownerReferences, resourceVersion sometimes.
// Used by ObjectGenerator and schema_gen (embedded).
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
  std::string apiVersion;  // the object's own "group/version": what most managers wrote in
  bool minimal = false;    // name, namespace, uid, creationTimestamp, generation only
  double optionalProbability = 0.5;  // for labels, annotations, finalizers, …
  // As a LIST returns stored objects: managedFields and resourceVersion always, labels and
  // annotations at least as often as optionalProbability says and at least four times in five.
  bool listed = false;
  SchemaNodePtr nameSchema;  // openAPIV3Schema metadata.properties.name, if restricted
};

rc::Gen<nlohmann::json> objectMeta(const MetadataOptions& options);

// Metadata of an embedded resource (x-kubernetes-embedded-resource): name, namespace, labels and
// annotations, each optional.
rc::Gen<nlohmann::json> embeddedObjectMeta();

// Pieces, also used on their own.
// DNS-1123 subdomains: word-like ones (sometimes ending in digits), and ones with every character
// the rule allows in every position it allows it, of 1, 63 or 253 characters now and then.
rc::Gen<std::string> dns1123Names();
rc::Gen<std::string> namespaceNames();  // DNS-1123 labels, the same way (up to 63 characters)
rc::Gen<nlohmann::json> labelMaps();  // non-empty (up to 8), valid keys and values, well-known ones
rc::Gen<nlohmann::json> annotationMaps();  // non-empty, valid keys, free-form values
rc::Gen<std::string> uids();               // RFC 4122 version 4, lowercase

}  // namespace convcheck
