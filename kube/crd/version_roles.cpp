#include "kube/crd/version_roles.h"

#include <algorithm>

namespace convcheck {

std::map<std::string, std::string> warningOnlyVersions(const Crd& crd) {
  std::map<std::string, std::string> out;
  const auto& stored = crd.storedVersions;
  for (const auto& v : crd.versions) {
    if (v.served || v.storage) continue;
    if (std::find(stored.begin(), stored.end(), v.name) != stored.end()) continue;
    out[v.name] =
        stored.empty()
            ? v.name +
                  " is neither served nor the storage version, and the CRD input has no "
                  "status.storedVersions; if objects are still stored in " +
                  v.name +
                  " in a cluster, test the CRD as `kubectl get crd -o yaml` prints it (with "
                  "status) so that findings on it fail the run"
            : v.name +
                  " is neither served nor the storage version and not in "
                  "status.storedVersions: no object is stored in it and no client reads it";
  }
  return out;
}

}  // namespace convcheck
