#include "kube/apiserver/label_validation.h"

#include <set>

#include "kube/go/go_format.h"

namespace convcheck {
namespace {

constexpr std::string_view kLabelKeyFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kLabelKeyErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr std::string_view kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kLabelValueErrMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character";
constexpr std::string_view kDns1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kDns1123SubdomainErrMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character";
constexpr std::size_t kTotalAnnotationSizeLimitB = 256 * (1 << 10);

// content.RegexError.
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

std::string maxLenError(int length) {
  return "must be no more than " + std::to_string(length) + " bytes";
}

bool isAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$
bool matchesLabelKeyName(std::string_view s) {
  if (s.empty() || !isAlnum(s.front()) || !isAlnum(s.back())) return false;
  for (char c : s)
    if (!isAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

// ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$
bool matchesDns1123Subdomain(std::string_view s) {
  if (s.empty()) return false;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    auto lowerAlnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (label.empty() || !lowerAlnum(label.front()) || !lowerAlnum(label.back())) return false;
    for (char c : label)
      if (!lowerAlnum(c) && c != '-') return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::vector<std::string> dns1123SubdomainErrors(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 253) errs.push_back(maxLenError(253));
  if (!matchesDns1123Subdomain(value))
    errs.push_back(regexError(kDns1123SubdomainErrMsg, kDns1123SubdomainFmt, {"example.com"}));
  return errs;
}

std::string invalid(std::string_view path, std::string_view value, const std::string& detail) {
  return std::string(path) + ": Invalid value: " + goQuote(value) + ": " + detail;
}

std::string lowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace

std::vector<std::string> labelKeyErrors(std::string_view value) {
  std::vector<std::string> errs;
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    std::size_t slash = value.find('/', start);
    parts.push_back(value.substr(start, slash == value.npos ? value.npos : slash - start));
    if (slash == value.npos) break;
    start = slash + 1;
  }
  std::string_view name;
  switch (parts.size()) {
    case 1:
      name = parts[0];
      break;
    case 2: {
      std::string_view prefix = parts[0];
      name = parts[1];
      if (prefix.empty()) {
        errs.push_back("prefix part must be non-empty");
      } else {
        for (auto& msg : dns1123SubdomainErrors(prefix)) errs.push_back("prefix part " + msg);
      }
      break;
    }
    default:
      errs.push_back("a valid label key " +
                     regexError(kLabelKeyErrMsg, kLabelKeyFmt, {"MyName", "my.name", "123-abc"}) +
                     " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
  }
  if (name.empty())
    errs.push_back("name part must be non-empty");
  else if (name.size() > 63)
    errs.push_back("name part " + maxLenError(63));
  if (!matchesLabelKeyName(name))
    errs.push_back("name part " +
                   regexError(kLabelKeyErrMsg, kLabelKeyFmt, {"MyName", "my.name", "123-abc"}));
  return errs;
}

std::vector<std::string> labelValueErrors(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 63) errs.push_back(maxLenError(63));
  if (!value.empty() && !matchesLabelKeyName(value))
    errs.push_back(regexError(kLabelValueErrMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  return errs;
}

std::vector<std::string> validateLabels(const nlohmann::json& labels, std::string_view path) {
  std::vector<std::string> out;
  if (!labels.is_object()) return out;
  for (const auto& [key, value] : labels.items()) {
    for (const auto& msg : labelKeyErrors(key)) out.push_back(invalid(path, key, msg));
    if (!value.is_string()) continue;
    const auto& text = value.get_ref<const std::string&>();
    for (const auto& msg : labelValueErrors(text)) out.push_back(invalid(path, text, msg));
  }
  return out;
}

std::vector<std::string> validateAnnotations(const nlohmann::json& annotations,
                                             std::string_view path) {
  std::vector<std::string> out;
  if (!annotations.is_object()) return out;
  std::size_t total = 0;
  for (const auto& [key, value] : annotations.items()) {
    for (const auto& msg : labelKeyErrors(lowerAscii(key))) out.push_back(invalid(path, key, msg));
    total += key.size() + (value.is_string() ? value.get_ref<const std::string&>().size() : 0);
  }
  if (total > kTotalAnnotationSizeLimitB)
    out.push_back(std::string(path) + ": Too long: may not be more than " +
                  std::to_string(kTotalAnnotationSizeLimitB) + " bytes");
  return out;
}

std::string aggregateErrors(const std::vector<std::string>& messages) {
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (const auto& m : messages)
    if (seen.insert(m).second) unique.push_back(m);
  if (unique.empty()) return "";
  if (unique.size() == 1) return unique[0];
  std::string out = "[";
  for (std::size_t i = 0; i < unique.size(); ++i) out += (i ? ", " : "") + unique[i];
  return out + "]";
}

}  // namespace convcheck
