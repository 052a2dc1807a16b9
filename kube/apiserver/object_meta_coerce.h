// What decoding metadata into metav1.ObjectMeta and writing it back does to a converted object
// (apiextensions objectmeta.GetObjectMeta / SetObjectMeta / CoerceWithOptions). Used by the
// API-server model to build what a client sees.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace convcheck {

struct ObjectMetaRoundTrip {
  nlohmann::json metadata;  // ToUnstructured(ObjectMeta); null when `error` is set
  std::string error;        // the JSON decoding error into ObjectMeta, Go's text
};

// json.Unmarshal(metadata, &ObjectMeta{}) then runtime.DefaultUnstructuredConverter.ToUnstructured:
// - only ObjectMeta's fields survive (unknown keys disappear);
// - empty strings, generation 0, null pointers and empty maps/lists are omitted (omitempty);
// - creationTimestamp is always written: null when absent or zero, else RFC 3339 in UTC without
//   fractional seconds; deletionTimestamp and managedFields[].time are normalised the same way;
// - ownerReferences keep apiVersion/kind/name/uid (even empty) and controller /
//   blockOwnerDeletion when set; managedFields keep their known fields;
// - null map values become "" (map[string]string), null list items "".
// Values of the wrong JSON type give Go's error ("json: cannot unmarshal number into Go struct
// field ObjectMeta.name of type string"); unparsable timestamps give "parsing time …"
// (approximation of Go's exact tail). Fields are decoded in sorted key order, as Go marshals the
// map before decoding it.
ObjectMetaRoundTrip objectMetaRoundTrip(const nlohmann::json& metadata);

// objectMetaRoundTrip of the metadata restoreObjectMeta makes, read in place: `original`'s
// metadata with its labels and annotations replaced by those of `labelsAndAnnotations` (what
// restoreLabelsAndAnnotations leaves in converted.metadata). The same result, without the copy.
ObjectMetaRoundTrip objectMetaRoundTrip(const nlohmann::json& original,
                                        const nlohmann::json& labelsAndAnnotations);

// Whether coerceEmbeddedResources(object, schema) may read the object's root metadata (the schema
// names metadata, has additionalProperties, or is itself an embedded resource). When it cannot, the
// root metadata's content during the walk makes no difference.
bool coerceReadsRootMetadata(const nlohmann::json& schema);

// objectmeta.CoerceWithOptions(nil, object, schema, isResourceRoot=false, no dropping): walks the
// schema's properties / additionalProperties / items; at every x-kubernetes-embedded-resource
// object, apiVersion and kind must be strings and metadata is round-tripped through ObjectMeta
// (above), with a zero creationTimestamp removed. Returns the first field error, e.g.
// "spec.template.apiVersion: Invalid value: 5: must be a string", or "" when all is well.
std::string coerceEmbeddedResources(nlohmann::json& object, const nlohmann::json& schema);

}  // namespace convcheck
