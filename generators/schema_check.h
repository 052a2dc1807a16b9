// Native check of a JSON value against a SchemaNode with kube-apiserver's semantics (types,
// bounds, enum, RE2 patterns, formats, list-type set/map uniqueness, combinators, unknown fields).
// Used by schema_gen (retries and shrink filtering) and by validity (next to valijson).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "generators/schema_model.h"

namespace convcheck {

// One reason a value is not what the API server would store; `path` is a field path such as
// "spec.ports[0].name" ("" for the object itself), map keys in brackets: "spec.selector[app]".
struct Violation {
  std::string path;
  std::string message;
  bool rule = false;  // a violated x-kubernetes-validations rule (generators/validation_rules)
};

std::string childPath(const std::string& parent, const std::string& key);
std::string indexPath(const std::string& parent, std::size_t index);

struct CheckOptions {
  bool deep = true;         // false: the node's own keywords only, children assumed valid
  bool rootObject = false;  // the value is a whole custom resource (apiVersion/kind/metadata)
};

// Returns true when `value` satisfies `node`. With `out` set, appends every violation found;
// without, stops at the first one.
bool checkValue(const SchemaNode& node, const nlohmann::json& value, const std::string& path,
                std::vector<Violation>* out, CheckOptions options = {});

}  // namespace convcheck
