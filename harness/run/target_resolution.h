// Where a kind's ConversionReviews go and how: URL, TLS settings and review version, from the
// command line's choices over the CRD's own clientConfig. One rule for run, replay and minimize.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "harness/crd/crd.h"
#include "harness/transport/http_types.h"
#include "properties/review.h"

namespace convcheck {

// What the user (or a bundle) chose; empty fields fall back to the CRD.
struct TargetChoice {
  std::string url;                             // else clientConfig.url
  TransportOptions transport;                  // CA: else clientConfig.caBundle
  std::optional<ReviewVersion> reviewVersion;  // else as the API server picks for this CRD
};

struct ResolvedTarget {
  std::string url;
  TransportOptions transport;
  ReviewVersion reviewVersion = ReviewVersion::V1;
};

// The error names the CRD and says what to pass. A CRD whose webhook is a service reference
// needs a URL (port-forward); the certificate is then checked for <service>.<namespace>.svc.
std::variant<ResolvedTarget, std::string> resolveTarget(const Crd& crd, const TargetChoice& given);

}  // namespace convcheck
