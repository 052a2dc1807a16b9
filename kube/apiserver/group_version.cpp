#include "kube/apiserver/group_version.h"

#include <algorithm>

namespace convcheck {

std::optional<GroupVersion> parseGroupVersion(std::string_view s, std::string* error) {
  if (s.empty() || s == "/") return GroupVersion{};
  switch (std::count(s.begin(), s.end(), '/')) {
    case 0:
      return GroupVersion{"", std::string(s)};
    case 1: {
      auto slash = s.find('/');
      return GroupVersion{std::string(s.substr(0, slash)), std::string(s.substr(slash + 1))};
    }
    default:
      if (error) *error = "unexpected GroupVersion string: " + std::string(s);
      return std::nullopt;
  }
}

GroupVersionKind fromApiVersionAndKind(std::string_view apiVersion, std::string_view kind) {
  if (auto gv = parseGroupVersion(apiVersion)) return {gv->group, gv->version, std::string(kind)};
  return {"", "", std::string(kind)};
}

std::string versionOfApiVersion(std::string_view apiVersion) {
  auto slash = apiVersion.rfind('/');
  return std::string(slash == std::string_view::npos ? apiVersion : apiVersion.substr(slash + 1));
}

std::string objectVersion(const nlohmann::json& object) {
  if (!object.is_object()) return "";
  auto it = object.find("apiVersion");
  if (it == object.end() || !it->is_string()) return "";
  return versionOfApiVersion(it->get_ref<const std::string&>());
}

}  // namespace convcheck
