#include "kube/names/name_rules.h"

namespace convcheck {
namespace {

constexpr std::size_t kLabelMaxLength = 63;       // DNS1123LabelMaxLength, DNS1035LabelMaxLength
constexpr std::size_t kSubdomainMaxLength = 253;  // DNS1123SubdomainMaxLength
constexpr std::size_t kNameMaxLength = 63;        // qualifiedNameMaxLength, LabelValueMaxLength

constexpr std::string_view kDns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1123LabelErrMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character";
constexpr std::string_view kDns1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kDns1123SubdomainErrMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character";
constexpr std::string_view kDns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1035LabelErrMsg =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character";
constexpr std::string_view kLabelKeyFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kLabelKeyErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr std::string_view kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kLabelValueErrMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character";

// RegexError: "(e.g. 'a',  or 'b', regex …)" — Go's loop leaves two spaces before "or".
std::string regexError(std::string_view msg, std::string_view re,
                       std::initializer_list<std::string_view> examples) {
  std::string out(msg);
  out += " (e.g. ";
  bool first = true;
  for (auto example : examples) {
    if (!first) out += " or ";
    first = false;
    out += "'" + std::string(example) + "', ";
  }
  out += "regex used for validation is '" + std::string(re) + "')";
  return out;
}

// MaxLenError.
std::string maxLenError(std::size_t length) {
  return "must be no more than " + std::to_string(length) + " bytes";
}

bool lowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool alnum(char c) { return lowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

// ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$, any length.
bool matchesDns1123Label(std::string_view s) {
  if (s.empty() || !lowerAlnum(s.front()) || !lowerAlnum(s.back())) return false;
  for (char c : s)
    if (!lowerAlnum(c) && c != '-') return false;
  return true;
}

// ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$, any length.
bool matchesDns1123Subdomain(std::string_view s) {
  for (std::size_t start = 0;;) {
    const std::size_t dot = s.find('.', start);
    if (!matchesDns1123Label(s.substr(start, dot == s.npos ? s.npos : dot - start))) return false;
    if (dot == s.npos) return true;
    start = dot + 1;
  }
}

// ^[a-z]([-a-z0-9]*[a-z0-9])?$, any length.
bool matchesDns1035Label(std::string_view s) {
  return matchesDns1123Label(s) && s.front() >= 'a' && s.front() <= 'z';
}

// ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$, any length.
bool matchesQualifiedNamePart(std::string_view s) {
  if (s.empty() || !alnum(s.front()) || !alnum(s.back())) return false;
  for (char c : s)
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

// The messages of the rules made of a length limit and a regex, in Go's order.
std::vector<std::string> lengthAndRegexErrors(std::string_view s, std::size_t maxLength,
                                              bool matches, std::string_view msg,
                                              std::string_view re,
                                              std::initializer_list<std::string_view> examples) {
  std::vector<std::string> errs;
  if (s.size() > maxLength) errs.push_back(maxLenError(maxLength));
  if (!matches) errs.push_back(regexError(msg, re, examples));
  return errs;
}

}  // namespace

std::vector<std::string> dns1123LabelErrors(std::string_view s) {
  return lengthAndRegexErrors(s, kLabelMaxLength, matchesDns1123Label(s), kDns1123LabelErrMsg,
                              kDns1123LabelFmt, {"my-name", "123-abc"});
}

std::vector<std::string> dns1123SubdomainErrors(std::string_view s) {
  return lengthAndRegexErrors(s, kSubdomainMaxLength, matchesDns1123Subdomain(s),
                              kDns1123SubdomainErrMsg, kDns1123SubdomainFmt, {"example.com"});
}

std::vector<std::string> dns1035LabelErrors(std::string_view s) {
  return lengthAndRegexErrors(s, kLabelMaxLength, matchesDns1035Label(s), kDns1035LabelErrMsg,
                              kDns1035LabelFmt, {"my-name", "abc-123"});
}

std::vector<std::string> labelKeyErrors(std::string_view s) {
  std::vector<std::string> errs;
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t slash = s.find('/', start);
    parts.push_back(s.substr(start, slash == s.npos ? s.npos : slash - start));
    if (slash == s.npos) break;
    start = slash + 1;
  }
  std::string_view name;
  switch (parts.size()) {
    case 1:
      name = parts[0];
      break;
    case 2:
      name = parts[1];
      if (parts[0].empty())
        errs.push_back("prefix part must be non-empty");
      else
        for (auto& msg : dns1123SubdomainErrors(parts[0])) errs.push_back("prefix part " + msg);
      break;
    default:
      errs.push_back("a valid label key " +
                     regexError(kLabelKeyErrMsg, kLabelKeyFmt, {"MyName", "my.name", "123-abc"}) +
                     " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
  }
  if (name.empty())
    errs.push_back("name part must be non-empty");
  else if (name.size() > kNameMaxLength)
    errs.push_back("name part " + maxLenError(kNameMaxLength));
  if (!matchesQualifiedNamePart(name))
    errs.push_back("name part " +
                   regexError(kLabelKeyErrMsg, kLabelKeyFmt, {"MyName", "my.name", "123-abc"}));
  return errs;
}

std::vector<std::string> labelValueErrors(std::string_view s) {
  return lengthAndRegexErrors(s, kNameMaxLength, s.empty() || matchesQualifiedNamePart(s),
                              kLabelValueErrMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"});
}

bool isDns1123Label(std::string_view s) {
  return s.size() <= kLabelMaxLength && matchesDns1123Label(s);
}

bool isDns1123Subdomain(std::string_view s) {
  return s.size() <= kSubdomainMaxLength && matchesDns1123Subdomain(s);
}

bool isDns1035Label(std::string_view s) {
  return s.size() <= kLabelMaxLength && matchesDns1035Label(s);
}

bool isQualifiedName(std::string_view s) {
  const std::size_t slash = s.find('/');
  const std::string_view name = slash == s.npos ? s : s.substr(slash + 1);
  if (slash != s.npos && (name.find('/') != s.npos || !isDns1123Subdomain(s.substr(0, slash))))
    return false;
  return name.size() <= kNameMaxLength && matchesQualifiedNamePart(name);
}

bool isLabelValue(std::string_view s) {
  return s.empty() || (s.size() <= kNameMaxLength && matchesQualifiedNamePart(s));
}

}  // namespace convcheck
