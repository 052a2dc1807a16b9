// Splitting an object's apiVersion ("group/version") into its group and version.
// Used by the example webhook's object converter and review handler.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace convcheck::example {

struct GroupVersion {
  std::string group;  // empty for the core group ("v1")
  std::string version;
};

// Parses "group/version" or "version"; nullopt for "", "a/b/c", "/v1" or "g/".
std::optional<GroupVersion> parseApiVersion(std::string_view apiVersion);

}  // namespace convcheck::example
