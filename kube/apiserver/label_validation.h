// Kubernetes label and annotation validation with the API server's exact messages
// (metav1validation.ValidateLabels, apivalidation.ValidateAnnotations; the key and value rules are
// kube/names/name_rules). Used by the API-server model's metadata restore and by properties/checks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

// ValidateLabels(labels, path): one field-error line per problem, e.g.
// `metadata.labels: Invalid value: "bad key": name part must consist of …`. `labels` is a JSON
// object of strings (non-string values are skipped; restoreObjectMeta rejects them earlier).
// Keys are checked in sorted order (Go iterates the map in random order).
std::vector<std::string> validateLabels(const nlohmann::json& labels,
                                        std::string_view path = "metadata.labels");

// ValidateAnnotations(annotations, path): keys lower-cased then checked as label keys (the message
// shows the original key); total size of keys plus values at most 262144 bytes, else
// `<path>: Too long: may not be more than 262144 bytes`. kube-apiserver's conversion path uses the
// singular path "metadata.annotation", which is the default here.
std::vector<std::string> validateAnnotations(const nlohmann::json& annotations,
                                             std::string_view path = "metadata.annotation");

// field.ErrorList.ToAggregate().Error(): duplicates dropped, one message as is, several as
// "[msg1, msg2]".
std::string aggregateErrors(const std::vector<std::string>& messages);

}  // namespace convcheck
