// The example CRDs (examples/crds) loaded for the run tests, which need a Crd without a runner.
// A missing or broken file throws, naming it.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

#include "kube/crd/crd_loader.h"

namespace convcheck::testing {

inline Crd loadExampleCrd(const std::string& file) {
  std::istringstream none;
  const std::string path = std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/" + file;
  LoadResult loaded = loadCrdInput(path, none);
  if (!loaded.ok() || loaded.crds.empty()) throw std::runtime_error("cannot load " + path);
  return loaded.crds.front();
}

}  // namespace convcheck::testing
