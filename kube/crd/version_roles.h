// Which conversions of a CRD the API server requests, and so whose findings fail a run: from a
// version objects may be in (served, storage, or in status.storedVersions) to a version clients
// read or the API server stores (served or storage). Used by the runner's tally and the reports.
#pragma once

#include <map>
#include <string>

#include "kube/crd/crd.h"

namespace convcheck {

// Versions whose findings are all warnings, with the reason to print: neither served nor the
// storage version and not in status.storedVersions (no object can be stored in them, and the API
// server converts to them only on rare field-manager paths). A version listed in
// status.storedVersions is never one: objects stored in it are converted on every read.
std::map<std::string, std::string> warningOnlyVersions(const Crd& crd);

// The (from, to) rule for one CRD.
class ConversionReach {
 public:
  ConversionReach() = default;  // no versions known: every conversion counts
  explicit ConversionReach(const Crd& crd);

  // Objects may be in `version`: the API server converts from it.
  bool countsAsSource(const std::string& version) const;
  // Clients read `version` or the API server stores in it: the API server converts to it.
  bool countsAsTarget(const std::string& version) const;
  // Why findings on conversions from -> to only warn, or "" when they fail the run (and for
  // properties not tied to a version pair: both empty).
  std::string warningFor(const std::string& from, const std::string& to) const;
  // version -> its roles and whether its conversions count: "served, storage: counts as source
  // and target", "in status.storedVersions, not served: counts as source only".
  std::map<std::string, std::string> roles() const;

 private:
  struct Role {
    bool source = false, target = false;
    std::string roles;  // "served, storage"
  };
  std::map<std::string, Role> roles_;
  bool knowsStoredVersions_ = false;  // the CRD input has status.storedVersions
};

}  // namespace convcheck
