// Which versions of a CRD can hold objects, and so whose findings fail a run: served, storage, or
// listed in status.storedVersions. Used by the runner (warning-only tallies) and the reports.
#pragma once

#include <map>
#include <string>

#include "kube/crd/crd.h"

namespace convcheck {

// Versions whose findings are warnings, with the reason to print: neither served nor the
// storage version and not in status.storedVersions (no object can be stored in them, and the API
// server converts to them only on rare field-manager paths). A version listed in
// status.storedVersions is never a warning: objects stored in it are converted on every read.
std::map<std::string, std::string> warningOnlyVersions(const Crd& crd);

}  // namespace convcheck
