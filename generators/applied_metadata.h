// The metadata a stored object's writers leave, made to agree with the object: each managedFields
// entry's fieldsV1 lists the fields its manager owns (FieldsV1 as structured-merge-diff encodes
// it), and a client-side `kubectl apply` leaves kubectl.kubernetes.io/last-applied-configuration.
// Used by ObjectGenerator on every drawn object and every shrink of it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "generators/schema_model.h"

namespace convcheck {

inline constexpr const char* kLastAppliedAnnotation =
    "kubectl.kubernetes.io/last-applied-configuration";

// What a managedFields entry's manager writes, by its manager name and subresource (the names
// metadata_gen draws): an applier (kubectl apply, helm, an operator that creates the object) owns
// the content and the annotations, `kubectl-label` the labels, a controller (`manager` on the
// main resource) finalizers and ownerReferences, and a status writer (`subresource: status`) the
// status.
enum class ManagerRole { Applier, Labeller, Controller, StatusWriter };
ManagerRole managerRole(const nlohmann::json& entry);

// The FieldsV1 set of `value` below a field whose schema is `node` (null: free-form): "f:<key>"
// per member of an object, "k:<keys as JSON>" per item of a list-type map, "v:<item as JSON>" per
// item of a set, nothing inside atomic lists and maps; "." marks a field that has children.
nlohmann::json fieldsV1Of(const nlohmann::json& value, const SchemaNode* node);

// `object` (a custom resource generated for the version whose schema is `root`) with fieldsV1
// filled in for each managedFields entry by its role (the content split between several appliers
// field by field, entries left owning nothing dropped, as the API server drops them) and, when a
// `kubectl-client-side-apply` entry is there, the last-applied-configuration annotation: what
// kubectl sent (apiVersion of that entry, kind, name, namespace, labels, the other annotations
// and the content without status) as Go's json.Marshal writes it, with kubectl's trailing newline;
// left out when it would take the annotations over the API server's 256 KiB. An object without
// managedFields is returned as it is.
nlohmann::json withAppliedMetadata(nlohmann::json object, const SchemaNode& root);

}  // namespace convcheck
