// Kubernetes' name rules (apimachinery pkg/util/validation): DNS-1123 labels and subdomains,
// DNS-1035 labels, qualified names (label and annotation keys) and label values, each as a test
// and as the validation's messages. Used by kube/crd (CRD validation), kube/apiserver (labels and
// annotations), and generators (valid names and formats, the validity check).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace convcheck {

// IsDNS1123Label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 bytes.
std::vector<std::string> dns1123LabelErrors(std::string_view s);
// IsDNS1123Subdomain: DNS-1123 labels joined by '.', at most 253 bytes in all (the labels have
// no limit of their own).
std::vector<std::string> dns1123SubdomainErrors(std::string_view s);
// IsDNS1035Label: [a-z]([-a-z0-9]*[a-z0-9])?, at most 63 bytes.
std::vector<std::string> dns1035LabelErrors(std::string_view s);
// content.IsLabelKey (IsQualifiedName's rule, with the label-key wording of current
// kube-apiserver): an optional DNS-1123 subdomain prefix and '/', then a name of at most 63 bytes
// matching ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]; the messages name the part ("name part must
// be no more than 63 bytes", "prefix part …").
std::vector<std::string> labelKeyErrors(std::string_view s);
// IsValidLabelValue: empty, or at most 63 bytes matching the name part's regex.
std::vector<std::string> labelValueErrors(std::string_view s);

// The same rules as tests (no messages built).
bool isDns1123Label(std::string_view s);
bool isDns1123Subdomain(std::string_view s);
bool isDns1035Label(std::string_view s);
bool isQualifiedName(std::string_view s);  // labelKeyErrors(s).empty()
bool isLabelValue(std::string_view s);

}  // namespace convcheck
