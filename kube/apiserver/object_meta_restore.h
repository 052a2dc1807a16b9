// webhook_converter.go restoreObjectMeta: a converted object keeps the original's metadata except
// labels and annotations, which come from the webhook and are validated when they changed. Used
// by the API-server model.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/apiserver/review.h"

namespace convcheck {

// restoreObjectMeta(original, converted): replaces converted.metadata by a copy of the original's
// (or {}), then for "labels" and "annotations" in that order: missing or null in the webhook's
// metadata deletes them; otherwise they must be maps of strings and, only when they differ from
// the original's, pass ValidateLabels / ValidateAnnotations("metadata.annotation"). Returns the
// error text ("missing metadata in converted object", "metadata.labels[k] must be a string, but is
// int64 in converted object", "metadata.labels: Invalid value: …", "[…, …]"), empty on success.
// Keys are visited in sorted order where Go's map order is random.
std::string restoreObjectMeta(const nlohmann::json& original, nlohmann::json& converted);

// restoreObjectMeta's checks and errors without its copy of the original's metadata:
// converted.metadata holds only the labels and annotations the restored metadata takes from the
// answer. objectMetaRoundTrip(original's metadata, that) reads the restored metadata in place.
std::string restoreLabelsAndAnnotations(const nlohmann::json& original, nlohmann::json& converted);

// The metadata fields other than labels and annotations that the webhook changed and that
// restoreObjectMeta silently reverts: one "reverted" SilentChange per top-level metadata key
// ("metadata.finalizers"), carrying the webhook's value (null when it removed the key). Numbers
// compare by value (1 and 1.0 are equal).
std::vector<SilentChange> revertedMetadata(const nlohmann::json& original,
                                           const nlohmann::json& converted, std::size_t index);

}  // namespace convcheck
