// The CRD zoo (corpora/crds): every CRD file loaded with the CRD loader, and the per-version
// object count (CONVCHECK_ZOO_OBJECTS overrides it). Used by the zoo, shrink and bench tests.
#pragma once

#include <string>
#include <vector>

#include "kube/crd/crd.h"

namespace convcheck::testing {

struct ZooCrd {
  std::string file;  // relative to the zoo directory, e.g. "istio/virtualservices….yaml"
  Crd crd;
};

// The zoo directory: $CONVCHECK_ZOO_DIR, else corpora/crds of the source tree.
std::string zooDir();

// The zoo's CRD files relative to zooDir(), sorted.
std::vector<std::string> zooFiles();

// The CRDs of one zoo file; loader errors are appended to `errors`.
std::vector<ZooCrd> loadZooFile(const std::string& file, std::vector<std::string>* errors);

// Every CRD of the zoo, sorted by file; a file the loader rejects is an assertion failure of the
// caller (returned in `errors`).
std::vector<ZooCrd> loadZoo(std::vector<std::string>* errors);

// $name as a positive integer, else `fallback`.
int envCount(const char* name, int fallback);

}  // namespace convcheck::testing
