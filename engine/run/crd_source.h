// Where a command's CRDs come from: a file, a directory, stdin ("-"), or the live cluster
// (kube://NAME, read with kubectl). Used by run, generate and minimize.
#pragma once

#include <istream>
#include <string>

#include "harness/cluster/kubectl.h"
#include "kube/crd/crd_loader.h"

namespace convcheck {

// loadCrdInput for files and stdin; for kube://NAME the CRD as the API server serves it
// (status.storedVersions included), named "kube://NAME" in messages. A CRD that cannot be read
// there is a LoadError quoting kubectl.
LoadResult loadCrdSource(const std::string& input, std::istream& stdinStream,
                         const ClusterAccess& cluster);

}  // namespace convcheck
