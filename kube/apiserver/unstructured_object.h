// apimachinery's unstructured.Unstructured as the API server reads a converted object: parsing a
// RawExtension and the Get*() accessors (missing or non-string = ""). Used by the API-server model.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "kube/apiserver/group_version.h"

namespace convcheck {

// unstructured.NestedString through maps; "" when a step is missing, not a map, or not a string.
std::string unstructuredString(const nlohmann::json& object, std::string_view field);
std::string unstructuredMetaString(const nlohmann::json& object, std::string_view field);

// Unstructured.GroupVersionKind(): the empty GVK when apiVersion does not parse (and then the
// kind is lost too).
GroupVersionKind unstructuredGvk(const nlohmann::json& object);

// Unstructured.UnmarshalJSON of a RawExtension's bytes (nullopt = empty Raw, i.e. JSON null):
// a JSON object whose GVK has a kind. Errors are Go's, e.g. "unexpected end of JSON input",
// "json: cannot unmarshal array into Go value of type map[string]interface {}",
// "Object 'Kind' is missing in '<raw>'".
struct UnstructuredParse {
  nlohmann::json object;  // the parsed object (Go numbers), null on error
  std::string error;
};
// `Checked` skips the syntax scan of a `raw` that is known to be one valid JSON value (an element
// of a body the decoder has already scanned); an empty Raw still fails as Go fails it.
enum class RawSyntax { Unchecked, Checked };
UnstructuredParse parseUnstructured(const std::optional<std::string>& raw,
                                    RawSyntax syntax = RawSyntax::Unchecked);

}  // namespace convcheck
