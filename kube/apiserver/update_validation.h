// kube-apiserver's OpenAPI validation of a custom resource that is created or updated, for the
// schema keywords a new release tightens (required, enum, maxLength, minLength, pattern, maximum,
// minimum, maxItems), with its field errors ("spec.owner: Required value"). Used by
// engine/upgrade to tell which stored objects the new CRD's schemas reject on their next update.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

struct FieldError {
  std::string path;  // "spec.owner", "spec.tags[2]"
  std::string type;  // field.ErrorType's text: "Required value", "Unsupported value", ...
  std::string text;  // the whole error as kube-apiserver prints it: "spec.owner: Required value"
};

// The errors of `object` against `schema` (an openAPIV3Schema), in the order of a walk of the
// object (required before the properties of each object, properties in key order). Other keywords
// (type, format, combinators, CEL rules, list types) are not evaluated here.
std::vector<FieldError> updateValidationErrors(const nlohmann::json& object,
                                               const nlohmann::json& schema);

}  // namespace convcheck
