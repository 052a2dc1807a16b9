#include "examples/webhook/api_version.h"

namespace convcheck::example {

std::optional<GroupVersion> parseApiVersion(std::string_view apiVersion) {
  if (apiVersion.empty()) return std::nullopt;
  auto slash = apiVersion.find('/');
  if (slash == std::string_view::npos) return GroupVersion{"", std::string(apiVersion)};
  if (apiVersion.find('/', slash + 1) != std::string_view::npos) return std::nullopt;
  auto group = apiVersion.substr(0, slash);
  auto version = apiVersion.substr(slash + 1);
  if (group.empty() || version.empty()) return std::nullopt;
  return GroupVersion{std::string(group), std::string(version)};
}

}  // namespace convcheck::example
