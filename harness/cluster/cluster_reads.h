// What convcheck reads from a live cluster, all through `kubectl get --raw` (GET only): a CRD by
// name (--crd kube://NAME) and up to N stored objects per version (--cluster-objects N); and the
// API server's service-proxy path of a webhook service. Used by app/ (CRD source, runner, target).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/cluster/kubectl.h"
#include "kube/crd/crd.h"

namespace convcheck {

// The scheme of a CRD named in the cluster, as crdify spells it: kube://widgets.example.com.
inline constexpr const char* kClusterCrdScheme = "kube://";

// The CRD's name when `input` is kube://NAME, else "".
std::string clusterCrdName(const std::string& input);

// GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/NAME: the CRD as JSON text.
RawGet readClusterCrd(const ClusterAccess& access, const std::string& name);

struct StoredObjects {
  std::vector<nlohmann::json> objects;  // as the API server serves them at the version
  std::string error;                    // "" when the list was read
};

// Up to `limit` objects of the CRD's resource at `version`, across all namespaces, in pages of
// ?limit= with ?continue= as the API server paginates lists. Items without apiVersion or kind
// get the version's.
StoredObjects readStoredObjects(const ClusterAccess& access, const Crd& crd,
                                const std::string& version, int limit);

// /api/v1/namespaces/NS/services/https:NAME:PORT/proxy/PATH: the service reached through the
// API server (which connects to it over HTTPS without checking its certificate).
std::string serviceProxyPath(const ServiceReference& service);

// The paths `kubectl proxy` may forward for service proxies and nothing else (a regex).
inline constexpr const char* kServiceProxyPaths =
    "^/api/v1/namespaces/[^/]+/services/[^/]+/proxy(/.*)?$";

}  // namespace convcheck
