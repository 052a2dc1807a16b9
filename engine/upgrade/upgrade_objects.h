// The objects an upgrade starts from: generated for the old CRD's versions (written by clients
// at each version it serves; stored as they are in each other version of status.storedVersions,
// as an earlier release stored them), read from the cluster (--cluster-objects: as stored, at the
// old storage version) and read from files (written at their version). Used by the upgrade runner.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/run/kind_context.h"
#include "engine/upgrade/upgrade_play.h"
#include "harness/cluster/kubectl.h"

namespace convcheck {

struct ObjectSources {
  int generatedPerVersion = 25;  // --objects
  int clusterObjects = 0;        // --cluster-objects
  ClusterAccess cluster;
  std::vector<std::string> files;  // --objects-from
  std::uint64_t seed = 0;
};

struct UpgradeInputs {
  std::vector<UpgradeObject> objects;  // identities unique, as in one cluster
  std::vector<std::string> notes;      // what was read, and a cluster list that could not be
  std::vector<std::string> errors;     // unreadable files, objects of versions the CRD lacks
};

// `storedVersions`: the cluster's status.storedVersions before the upgrade.
UpgradeInputs upgradeObjects(const KindContext& oldKind,
                             const std::vector<std::string>& storedVersions,
                             const ObjectSources& sources);

// The versions of `crd` that `object`'s managedFields name (the versions its clients wrote it
// at), in order, without repeats.
std::vector<std::string> managedFieldVersions(const nlohmann::json& object, const Crd& crd);

}  // namespace convcheck
