// kubectl as convcheck's client of a live cluster (every kubeconfig auth method, exec plugins
// included): read-only raw GETs and a local `kubectl proxy`. Used by app/ for --crd kube://NAME,
// --cluster-objects and --service-proxy.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace convcheck {

class BackgroundKubectl;

// Which kubectl and which cluster: --kubeconfig and --context ("" = kubectl's defaults).
struct ClusterAccess {
  std::string kubectl = "kubectl";  // PATH is searched
  std::string kubeconfig;
  std::string context;

  // --kubeconfig and --context as kubectl takes them, before its verb.
  std::vector<std::string> globalArgs() const;
};

// The body of a GET, or an error naming the path and quoting kubectl's message.
using RawGet = std::variant<std::string, std::string>;
inline bool gotBody(const RawGet& r) { return r.index() == 0; }

// `kubectl get --raw PATH` (a GET of an API path, nothing else): the body on success.
RawGet getRaw(const ClusterAccess& access, const std::string& path);

// `kubectl proxy` on 127.0.0.1 (a free port) that forwards only paths matching `acceptPaths` and
// never PUT, PATCH or DELETE; stopped by the destructor.
class KubectlProxy {
 public:
  static std::variant<std::unique_ptr<KubectlProxy>, std::string> start(
      const ClusterAccess& access, const std::string& acceptPaths);
  ~KubectlProxy();
  KubectlProxy(const KubectlProxy&) = delete;
  KubectlProxy& operator=(const KubectlProxy&) = delete;

  // http://127.0.0.1:PORT: the API server as the kubeconfig's user, with the proxy's filters.
  const std::string& baseUrl() const { return baseUrl_; }

 private:
  KubectlProxy() = default;
  std::unique_ptr<BackgroundKubectl> process_;
  std::string baseUrl_;
};

}  // namespace convcheck
