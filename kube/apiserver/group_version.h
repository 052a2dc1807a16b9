// apimachinery's schema.GroupVersion / GroupVersionKind: parsing and printing exactly as the API
// server does in its messages. Used by the API-server model.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace convcheck {

struct GroupVersion {
  std::string group, version;
  bool operator==(const GroupVersion&) const = default;
  // GroupVersion.String(): "group/version", or just "version" for the core group.
  std::string str() const { return group.empty() ? version : group + "/" + version; }
};

struct GroupVersionKind {
  std::string group, version, kind;
  bool operator==(const GroupVersionKind&) const = default;
  GroupVersion groupVersion() const { return {group, version}; }
  // GroupVersionKind.String(): "group/version, Kind=kind" (also "/, Kind=" when empty).
  std::string str() const { return group + "/" + version + ", Kind=" + kind; }
};

// schema.ParseGroupVersion: "" and "/" give the empty GroupVersion, "v1" the core group,
// "g/v" a group; more than one '/' fails with "unexpected GroupVersion string: <s>" (returned
// through `error` when given).
std::optional<GroupVersion> parseGroupVersion(std::string_view s, std::string* error = nullptr);

// schema.FromAPIVersionAndKind: an unparsable apiVersion gives a GVK with only the kind.
GroupVersionKind fromApiVersionAndKind(std::string_view apiVersion, std::string_view kind);

// The version part of an apiVersion ("stable.example.com/v1" -> "v1", "v1" -> "v1").
std::string versionOfApiVersion(std::string_view apiVersion);
// The version part of an object's apiVersion; "" when it has none (or is not an object).
std::string objectVersion(const nlohmann::json& object);

}  // namespace convcheck
