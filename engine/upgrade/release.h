// One release of a kind as an API server that serves it uses it: its CRD compiled (KindContext)
// and its webhook, reached through a Connections (a converter per caller, sharing the --jobs
// request slots). The old and the new release of `convcheck upgrade`, the two webhooks of
// `convcheck diff`.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/run/connections.h"
#include "engine/run/kind_context.h"
#include "engine/run/target_resolution.h"
#include "properties/checks/cause_analysis.h"

namespace convcheck {

// How to reach one release's webhook, as the command line chose it.
struct ReleaseTarget {
  std::string url;  // else the CRD's clientConfig.url
  TransportOptions transport;
  std::optional<ReviewVersion> reviewVersion;  // else as kube-apiserver picks for the CRD
  bool serviceProxy = false;  // a service webhook through the API server's service proxy
  bool portForward = false;   // a service webhook through `kubectl port-forward`
  TargetFactory makeTarget;   // unset: openTarget (a started webhook's factory waits for it)
};

// The webhook calls one release got (while an object was played, or a case compared).
struct ReleaseCalls {
  int calls = 0;
  int unreached = 0;      // failed to connect or to complete the TLS handshake
  std::string lastError;  // the transport error of the last unreached call
  void add(const ReleaseCalls& other);
  // Counts a call that `http` answered (or did not).
  void count(const HttpResult& http);
};

class Release {
 public:
  // `name`: "old" or "new", as reports say it. `kind` must outlive the release.
  Release(std::string name, const KindContext& kind, ResolvedTarget target,
          TargetFactory makeTarget, int jobs);
  Release(const Release&) = delete;
  Release& operator=(const Release&) = delete;

  const std::string& name() const { return name_; }
  const KindContext& kind() const { return kind_; }
  const Crd& crd() const { return kind_.crd(); }
  const ResolvedTarget& target() const { return connections_.target(); }
  // A converter of its own (one per thread), whose calls share the release's request slots.
  std::unique_ptr<Converter> open() { return connections_.open(); }

  const std::string& storage() const { return storage_; }
  // The versions the CRD serves that have a schema, in spec order.
  const std::vector<std::string>& served() const { return served_; }
  bool hasVersion(const std::string& version) const { return crd().version(version) != nullptr; }
  // The openAPIV3Schema of a version of this release's CRD, for path normalisation.
  SchemaLookup schemas() const;

 private:
  std::string name_;
  const KindContext& kind_;
  Connections connections_;
  std::string storage_;
  std::vector<std::string> served_;
};

// Why `release` could not be reached: every one of `calls` failed to connect ("" when some call
// reached it, or none was made).
std::string unreachableReason(const Release& release, const ReleaseCalls& calls);

}  // namespace convcheck
