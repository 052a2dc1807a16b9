// One object through an upgrade, as kube-apiserver plays it when a CRD and its webhook are
// replaced while objects stay stored: stored by the old release; read after the upgrade at every
// version the new CRD serves, through the new webhook, against what the old release showed;
// migrated to the new storage version and read again; read back by the old release (a roll
// back); and what the CRD change does to it (a stored version removed, a version still requested
// no longer served, the storage moved without a migration step, a new schema that rejects its
// next update). Used by the upgrade runner, one call per object and thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/upgrade/release.h"
#include "engine/upgrade/release_reads.h"
#include "engine/upgrade/step_results.h"
#include "properties/config/ack_config.h"

namespace convcheck {

// An object an upgrade starts from.
struct UpgradeObject {
  nlohmann::json object;  // with apiVersion and kind
  std::string origin;     // "generated", "cluster NS/NAME", "FILE, document N"
  // true: stored as it is (read from the cluster; or in a version of status.storedVersions, as an
  // earlier release stored it); false: written by a client at its version, stored by the old one.
  bool stored = false;
  // Versions clients still use for it: its managedFields' apiVersions, and its own when a client
  // wrote it (objects from the cluster and from files; generated ones name no real client).
  std::vector<std::string> requestedVersions = {};
};

// What the play needs to know of the upgrade besides the two releases.
struct UpgradePlan {
  // The new release migrates stored objects (a StorageVersionMigration among its manifests, or
  // --migrated): moving the storage version is then no finding.
  bool migrationStep = false;
  // The cluster's status.storedVersions before the upgrade (the old storage version included).
  std::vector<std::string> storedVersions;
};

struct PlayedObject {
  std::vector<StepResult> results;  // in the order played
  ReleaseCalls oldCalls, newCalls;
};

class UpgradePlay {
 public:
  // The releases and `acks` (may be null) must outlive the play.
  UpgradePlay(const Release& oldRelease, const Release& newRelease, UpgradePlan plan,
              const AckConfig* acks)
      : old_(oldRelease), new_(newRelease), plan_(std::move(plan)), acks_(acks) {}

  // Every result of `object`, in the order played, and the calls made. `oldCalls` and `newCalls`
  // convert through the old and the new release's webhook and are used by this call only; `seed`
  // makes the request uids deterministic.
  PlayedObject play(const UpgradeObject& object, std::uint64_t seed, Converter& oldCalls,
                    Converter& newCalls) const;

 private:
  struct State;
  // readAt through the old (`old` true) or the new release, counted.
  ReleaseRead read(State& s, bool old, const nlohmann::json& stored,
                   const std::string& version) const;
  bool store(State& s) const;
  bool crdChange(State& s) const;
  void readAfterUpgrade(State& s) const;
  void unwritable(State& s, const std::string& version, const ReleaseRead& read) const;
  void migrate(State& s) const;
  void rollBack(State& s) const;

  const Release& old_;
  const Release& new_;
  UpgradePlan plan_;
  const AckConfig* acks_;
};

}  // namespace convcheck
