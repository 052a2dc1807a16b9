#include "kube/apiserver/label_validation.h"

#include <set>

#include "kube/go/go_format.h"
#include "kube/names/name_rules.h"

namespace convcheck {
namespace {

constexpr std::size_t kTotalAnnotationSizeLimitB = 256 * (1 << 10);

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
