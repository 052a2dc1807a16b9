// Writes JSON values as YAML documents with yaml-cpp's emitter, quoting every string that YAML 1.1
// (sigs.k8s.io/yaml, kubectl) would read as something else. Used by generate_command.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace convcheck {

// One YAML document (no "---" marker), ending in a newline.
std::string toYaml(const nlohmann::json& value);

}  // namespace convcheck
