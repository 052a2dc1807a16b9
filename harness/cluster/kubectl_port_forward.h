// `kubectl port-forward` to a webhook's Service, on 127.0.0.1 only: the local end of the tunnel
// the API server opens to one of the Service's pods. Used by app/ for --port-forward.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "harness/cluster/kubectl.h"
#include "kube/crd/crd.h"

namespace convcheck {

class BackgroundKubectl;

// kubectl's arguments after its global ones: port-forward --namespace NS service/NAME :PORT,
// listening on 127.0.0.1 alone (kubectl picks the local port).
std::vector<std::string> portForwardArgs(const ServiceReference& service);

// Runs while it lives; the destructor stops kubectl.
class KubectlPortForward {
 public:
  // Starts kubectl and waits up to `wait` for its "Forwarding from 127.0.0.1:PORT -> ..." line.
  // The error names the service and quotes what kubectl wrote when it ended or never forwarded.
  static std::variant<std::unique_ptr<KubectlPortForward>, std::string> start(
      const ClusterAccess& access, const ServiceReference& service, std::chrono::milliseconds wait);
  ~KubectlPortForward();
  KubectlPortForward(const KubectlPortForward&) = delete;
  KubectlPortForward& operator=(const KubectlPortForward&) = delete;

  // https://127.0.0.1:PORT: the service's port, as reached from this machine.
  const std::string& baseUrl() const { return baseUrl_; }

  // When kubectl has exited (it ends the forward when the pod goes away or the tunnel breaks),
  // or exits within `grace` (calls failed: it may still be writing its error): "kubectl
  // port-forward to service NS/NAME port P ended during the run: " and the last line it wrote.
  std::optional<std::string> endedEarly(
      std::chrono::milliseconds grace = std::chrono::milliseconds(0));

 private:
  KubectlPortForward() = default;
  std::unique_ptr<BackgroundKubectl> process_;
  std::string what_;  // "kubectl port-forward to service NS/NAME port P"
  std::string baseUrl_;
};

}  // namespace convcheck
