// Whether a release's manifests migrate a CRD's stored objects to its storage version: a
// StorageVersionMigration (storagemigration.k8s.io, which kube-apiserver serves since 1.30, or
// migration.k8s.io of kube-storage-version-migrator) whose spec.resource names the CRD's group and
// plural, in the files the release's CRDs are read from. Used by the upgrade runner.
#pragma once

#include <string>

#include "kube/crd/crd.h"

namespace convcheck {

// `manifests`: the --new-crd input (a file or a directory of *.yaml, *.yml and *.json, as the
// CRD loader reads it); stdin and kube://NAME carry none.
bool hasStorageMigration(const std::string& manifests, const Crd& crd);

// Whether a loader warning is about a StorageVersionMigration document it skipped (expected
// beside the CRDs of a release).
bool isSkippedStorageMigration(const std::string& warning);

}  // namespace convcheck
