// Everything a `convcheck upgrade` needs, parsed from the command line once and passed down by
// value: the two releases (CRDs and how to reach their webhooks), the objects, the reports' seed
// and command. Built by app/cli/upgrade_command; read by the upgrade runner.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/upgrade/release.h"
#include "harness/cluster/kubectl.h"
#include "properties/config/ack_config.h"

namespace convcheck {

struct UpgradeConfig {
  std::string oldCrd;  // --crd: a file, a directory, - or kube://NAME (the cluster's CRD)
  std::string newCrd;  // --new-crd: a file or a directory (StorageVersionMigrations beside it)
  ReleaseTarget oldTarget, newTarget;
  ClusterAccess cluster;           // --kubeconfig, --context
  std::vector<std::string> kinds;  // --kind; empty: every CRD both releases have
  // --stored-versions: the cluster's status.storedVersions, for an old CRD read from a file
  // without status; empty: the old CRD's, else its storage version.
  std::vector<std::string> storedVersions;
  int objectsPerVersion = 25;            // --objects: generated per version
  int clusterObjects = 0;                // --cluster-objects: stored objects read (GET only)
  std::vector<std::string> objectFiles;  // --objects-from
  bool migrated = false;                 // --migrated: the release migrates stored objects itself
  std::uint64_t seed = 0;
  int jobs = 8;  // objects played at once (each release's requests in flight at most this)
  bool canonicalDateTimes = true;
  std::optional<AckConfig> acks;  // .convcheck.yaml
  std::string commandLine;        // for the reproduction line in reports
  std::chrono::milliseconds portForwardWait{0};
  const std::atomic<bool>* stopRequested = nullptr;  // SIGINT/SIGTERM; may be null
};

}  // namespace convcheck
