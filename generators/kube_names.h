// Kubernetes name rules (apimachinery pkg/util/validation): DNS-1123/1035 names, qualified names,
// label values. Used by metadata_gen, format_check and the metadata validity rules.
#pragma once

#include <string>
#include <string_view>

namespace convcheck {

bool isDns1123Label(std::string_view s);      // [a-z0-9]([-a-z0-9]*[a-z0-9])?, ≤ 63
bool isDns1123Subdomain(std::string_view s);  // labels joined by '.', ≤ 253
bool isDns1035Label(std::string_view s);      // [a-z]([-a-z0-9]*[a-z0-9])?, ≤ 63
// [prefix/]name: prefix a DNS-1123 subdomain, name ≤ 63 of ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool isQualifiedName(std::string_view s);
bool isLabelValue(std::string_view s);  // empty, or a qualified-name "name" part

}  // namespace convcheck
