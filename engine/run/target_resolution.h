// Where a kind's ConversionReviews go and how: URL, TLS settings and review version, from the
// command line's choices over the CRD's own clientConfig. One rule for run, replay and minimize.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "harness/cluster/kubectl.h"
#include "harness/cluster/kubectl_port_forward.h"
#include "harness/transport/function_target.h"
#include "harness/transport/review_target.h"
#include "harness/transport/transport_options.h"
#include "kube/apiserver/http_types.h"
#include "kube/apiserver/review.h"
#include "kube/crd/crd.h"

namespace convcheck {

// What the user (or a bundle) chose; empty fields fall back to the CRD.
struct TargetChoice {
  std::string url;                             // else clientConfig.url
  TransportOptions transport;                  // CA: else clientConfig.caBundle
  std::optional<ReviewVersion> reviewVersion;  // else as the API server picks for this CRD
  // http://127.0.0.1:PORT of a running `kubectl proxy`: a service reference is then reached
  // through the API server's service proxy (no --url may be given).
  std::string serviceProxy;
};

struct ResolvedTarget {
  std::string url;
  TransportOptions transport;
  ReviewVersion reviewVersion = ReviewVersion::V1;
  // The in-cluster service the URL stands in for (e.g. a port-forward), when the CRD names one.
  std::optional<ServiceReference> service;
  // What answers an inprocess:// URL (the in-process target kind); unset for other kinds.
  ReviewFunction function = {};
};

// The error names the CRD and says what to pass. A CRD whose webhook is a service reference
// needs a URL (port-forward; a URL without a path takes the service's path, as kube-apiserver
// posts to it, and the certificate is checked for <service>.<namespace>.svc) or the service
// proxy (the API server connects to the service, checking no certificate).
std::variant<ResolvedTarget, std::string> resolveTarget(const Crd& crd, const TargetChoice& given);

// For --service-proxy: a `kubectl proxy` for as long as it lives, whose baseUrl() goes in
// TargetChoice::serviceProxy; the error says why it could not start.
std::variant<std::unique_ptr<KubectlProxy>, std::string> startServiceProxy(
    const ClusterAccess& cluster);

// For --port-forward: "" when the CRD's webhook is a service reference, else the error (bad input).
std::string portForwardUnsupported(const Crd& crd);

// For --port-forward: `kubectl port-forward` to the CRD's webhook service (portForwardUnsupported
// said "") for as long as it lives; its baseUrl() goes in TargetChoice::url, so the service's path
// is posted to and the certificate verified for <service>.<namespace>.svc with the caBundle.
// kubectl has `wait` (--wait; 0: kPortForwardWait) to start forwarding. The error means the
// webhook could not be reached.
std::variant<std::unique_ptr<KubectlPortForward>, std::string> startPortForward(
    const ClusterAccess& cluster, const Crd& crd, std::chrono::milliseconds wait);

inline constexpr std::chrono::seconds kPortForwardWait{30};

// `reason` (why the webhook could not be reached) followed, for a failed certificate check of a
// service reference, by the name kube-apiserver verifies and the flag that changes it.
std::string explainUnreachable(const ResolvedTarget& target, const std::string& reason);

// Makes a kind's targets, one per concurrent caller (a run has --jobs of them, plus shrinks):
// openTarget (target_kinds.h) outside tests.
using TargetFactory = std::function<std::unique_ptr<ReviewTarget>(const ResolvedTarget&)>;

}  // namespace convcheck
