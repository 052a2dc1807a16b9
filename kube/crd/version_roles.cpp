#include "kube/crd/version_roles.h"

#include <algorithm>
#include <vector>

namespace convcheck {

namespace {
bool stored(const Crd& crd, const std::string& version) {
  const auto& s = crd.storedVersions;
  return std::find(s.begin(), s.end(), version) != s.end();
}
}  // namespace

std::map<std::string, std::string> warningOnlyVersions(const Crd& crd) {
  std::map<std::string, std::string> out;
  const auto& storedVersions = crd.storedVersions;
  for (const auto& v : crd.versions) {
    if (v.served || v.storage || stored(crd, v.name)) continue;
    out[v.name] =
        storedVersions.empty()
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

ConversionReach::ConversionReach(const Crd& crd)
    : knowsStoredVersions_(!crd.storedVersions.empty()) {
  for (const auto& v : crd.versions) {
    Role r;
    const bool inStored = stored(crd, v.name);
    r.source = v.served || v.storage || inStored;
    r.target = v.served || v.storage;
    std::vector<std::string> words;
    words.push_back(v.served ? "served" : "not served");
    if (v.storage) words.push_back("storage");
    if (inStored) words.push_back("in status.storedVersions");
    // Roles first, then what it is not: "in status.storedVersions, not served".
    std::stable_partition(words.begin(), words.end(),
                          [](const std::string& w) { return w.rfind("not ", 0) != 0; });
    for (std::size_t i = 0; i < words.size(); ++i) r.roles += (i ? ", " : "") + words[i];
    roles_[v.name] = std::move(r);
  }
}

bool ConversionReach::countsAsSource(const std::string& version) const {
  auto it = roles_.find(version);
  return it == roles_.end() || it->second.source;  // a version the CRD does not list: judged
}

bool ConversionReach::countsAsTarget(const std::string& version) const {
  auto it = roles_.find(version);
  return it == roles_.end() || it->second.target;
}

std::string ConversionReach::warningFor(const std::string& from, const std::string& to) const {
  if (from.empty() && to.empty()) return "";
  const std::string hint =
      knowsStoredVersions_
          ? ""
          : " (the CRD input has no status.storedVersions: test the CRD as `kubectl get crd -o "
            "yaml` prints it if objects may still be stored in older versions)";
  if (!countsAsSource(from))
    return "the API server never converts from " + from + " (" + roles_.at(from).roles +
           "): no object is stored in it and no client writes it" + hint;
  if (!countsAsTarget(to))
    return "the API server converts to " + to + " (" + roles_.at(to).roles +
           ") only on rare field-manager paths: no client reads it and nothing is stored in it";
  return "";
}

std::map<std::string, std::string> ConversionReach::roles() const {
  std::map<std::string, std::string> out;
  for (const auto& [version, r] : roles_) {
    const char* counts = r.source && r.target ? "counts as source and target"
                         : r.source           ? "counts as source only"
                         : r.target
                             ? "counts as target only"
                             : "counts as neither source nor target (findings on it only warn)";
    out[version] = r.roles + ": " + counts;
  }
  return out;
}

}  // namespace convcheck
