// A cluster for the tests that drive the real kubectl: tests/harness/cluster/apiserver-stand-in.js
// (a loopback HTTPS stand-in of the few kube-apiserver endpoints convcheck and kubectl use, not an
// API server) in front of the example webhook, and a kubeconfig reaching it. Used by
// cluster_test.cpp, cluster_port_forward_test.cpp and cluster_upgrade_test.cpp.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/child_process.h"
#include "tests/support/example_webhook.h"

namespace convcheck::test {

inline const std::string kStandInCrd = "crontabs.stable.example.com";

struct StandInClusterOptions {
  std::vector<std::string> faults{};  // the example webhook's --fault names
  // DNS names the webhook's serving certificate holds besides localhost and 127.0.0.1.
  std::vector<std::string> webhookDnsNames{};
  // The CRD the stand-in serves names this service instead of crontab-webhook (which the
  // stand-in alone serves) when not empty.
  std::string crdServiceName{};
  bool caBundle = false;  // the CRD's clientConfig.caBundle is the webhook's CA
  // The CRD the stand-in serves, its stored objects (files in tests/harness/cluster) and the
  // service its clientConfig names (convcheck-test/SERVICE:443, the example webhook).
  std::string crdFile = "crontabs-crd.json";
  std::string objectsFile = "crontab-objects.json";
  std::string service = "crontab-webhook";
  bool webSocket = true;         // false: port-forward upgrades over WebSocket are refused (400)
  int dropPortForwardAfter = 0;  // > 0: a port-forward tunnel is cut after this many connections
};

// Why the tests cannot run here (no kubectl, no node), or "".
std::string missingClusterTools();

// The example webhook behind the stand-in (service convcheck-test/crontab-webhook port 443, or
// the options' service, and its pod's port 9443 for port-forward), and a kubeconfig whose current
// context points nowhere and whose context "stand-in" reaches the stand-in as a user whose token
// comes from an exec credential plugin.
class StandInCluster {
 public:
  explicit StandInCluster(StandInClusterOptions options = {});
  ~StandInCluster();

  // --kubeconfig FILE --context stand-in
  std::vector<std::string> clusterArgs() const;

  // Every request the stand-in received: "VERB PATH?QUERY", with indented lines of what it did
  // ("  objects …" for a ConversionReview through the service proxy, "  upgrade …" and
  // "  forwarded connection …" for port-forward).
  std::vector<std::string> requests() const;

  const ExampleWebhook& webhook() const { return hook_; }

 private:
  TestPki pki_;
  ExampleWebhook hook_;
  std::filesystem::path log_;
  std::unique_ptr<ChildProcess> apiserver_;
  std::string kubeconfig_;
};

// The requests of `lines` (StandInCluster::requests) by verb: the POSTs to a path starting with
// `proxyPath` (reviews through the service proxy), and every other request that is not a GET.
struct RequestVerbs {
  int proxyPosts = 0;
  std::vector<std::string> otherWrites;  // should be none: convcheck writes nothing
};
RequestVerbs requestVerbs(const std::vector<std::string>& lines, const std::string& proxyPath);

// Whether any of `lines` contains `part`.
bool anyLine(const std::vector<std::string>& lines, const std::string& part);

// `args` followed by `more`.
std::vector<std::string> withArgs(std::vector<std::string> args,
                                  const std::vector<std::string>& more);

}  // namespace convcheck::test
