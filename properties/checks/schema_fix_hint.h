// Whether the webhook or the CRD's schemas are the likelier fix when a converted object violates
// the target version's schema, from what the source object held there and whether the source
// version's schema has the field at all. Used by the schema-valid property's findings.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace convcheck {

struct SchemaViolationSite {
  std::string path;     // the violation's field path in the converted object ("spec.port")
  std::string message;  // kube-apiserver's words ("Required value", "Invalid value: ...")
  std::string from;     // the source object's version
  std::string to;       // the target version
};

// One sentence saying "likelier fix: the webhook" or "likelier fix: the CRD schema ...", or
// nullopt when nothing points either way. `sent` is the source object `converted` was made from;
// `sourceSchema` its version's openAPIV3Schema (nullptr: unknown).
std::optional<std::string> schemaFixHint(const SchemaViolationSite& site,
                                         const nlohmann::json& sent,
                                         const nlohmann::json& converted,
                                         const nlohmann::json* sourceSchema);

}  // namespace convcheck
