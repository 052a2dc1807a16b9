// The example CRDs (examples/crds) loaded for the run tests, which need a Crd without a runner,
// and a Widget to send. A missing or broken file throws, naming it.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "kube/crd/crd_loader.h"

namespace convcheck::testing {

inline Crd loadExampleCrd(const std::string& file) {
  std::istringstream none;
  const std::string path = std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/" + file;
  LoadResult loaded = loadCrdInput(path, none);
  if (!loaded.ok() || loaded.crds.empty()) throw std::runtime_error("cannot load " + path);
  return loaded.crds.front();
}

// A v1 Widget of widgets.example.convcheck.dev named `name` (its uid u-<name>).
inline nlohmann::json exampleWidget(const std::string& name) {
  return {{"apiVersion", "example.convcheck.dev/v1"},
          {"kind", "Widget"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", "u-" + name}}},
          {"spec", {{"colour", "red"}, {"replicas", 3}}}};
}

}  // namespace convcheck::testing
