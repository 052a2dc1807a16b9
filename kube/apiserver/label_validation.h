// Kubernetes label and annotation validation with the API server's exact messages
// (metav1validation.ValidateLabels, apivalidation.ValidateAnnotations, content.IsLabelKey /
// IsLabelValue). Used by the API-server model's metadata restore, by properties/checks, and by
// generators that want valid labels.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

// content.IsLabelKey (a.k.a. IsQualifiedName): an optional DNS-1123 subdomain prefix and '/',
// then a name of at most 63 bytes matching ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]. Returns
// the detail messages ("name part must be no more than 63 bytes", …); empty when valid.
std::vector<std::string> labelKeyErrors(std::string_view key);

// content.IsLabelValue: empty, or at most 63 bytes matching the name regex above.
std::vector<std::string> labelValueErrors(std::string_view value);

inline bool isValidLabelKey(std::string_view key) { return labelKeyErrors(key).empty(); }
inline bool isValidLabelValue(std::string_view value) { return labelValueErrors(value).empty(); }

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
