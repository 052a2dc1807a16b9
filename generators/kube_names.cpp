#include "generators/kube_names.h"

namespace convcheck {

namespace {

bool lowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool alnum(char c) { return lowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

bool dnsLabelShape(std::string_view s) {
  if (s.empty() || s.size() > 63) return false;
  if (!lowerAlnum(s.front()) || !lowerAlnum(s.back())) return false;
  for (char c : s)
    if (!lowerAlnum(c) && c != '-') return false;
  return true;
}

bool qualifiedNamePart(std::string_view s) {
  if (s.empty() || s.size() > 63) return false;
  if (!alnum(s.front()) || !alnum(s.back())) return false;
  for (char c : s)
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

}  // namespace

bool isDns1123Label(std::string_view s) { return dnsLabelShape(s); }

bool isDns1123Subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    const std::string_view label =
        s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    // Subdomain labels follow the label shape but the 63 limit applies only to the whole name.
    if (label.empty() || !lowerAlnum(label.front()) || !lowerAlnum(label.back())) return false;
    for (char c : label)
      if (!lowerAlnum(c) && c != '-') return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool isDns1035Label(std::string_view s) {
  return dnsLabelShape(s) && s.front() >= 'a' && s.front() <= 'z';
}

bool isQualifiedName(std::string_view s) {
  const std::size_t slash = s.find('/');
  if (slash == std::string_view::npos) return qualifiedNamePart(s);
  if (s.find('/', slash + 1) != std::string_view::npos) return false;
  return isDns1123Subdomain(s.substr(0, slash)) && qualifiedNamePart(s.substr(slash + 1));
}

bool isLabelValue(std::string_view s) { return s.empty() || qualifiedNamePart(s); }

}  // namespace convcheck
