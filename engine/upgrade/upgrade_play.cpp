#include "engine/upgrade/upgrade_play.h"

#include <algorithm>
#include <map>
#include <random>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/upgrade/release_reads.h"
#include "kube/apiserver/group_version.h"
#include "kube/apiserver/update_validation.h"
#include "properties/checks/release_properties.h"

namespace convcheck {

using nlohmann::json;

struct UpgradePlay::State {
  const UpgradeObject& input;
  Converter& oldCalls;
  Converter& newCalls;
  std::mt19937_64 uids;
  StepContext oldContext, newContext;
  std::vector<StepResult> out;
  ReleaseCalls oldCount, newCount;
  json stored;                         // as the old release stored it
  std::string storedAt;                // the version it is stored in
  std::map<std::string, json> before;  // what the old release showed at each version it serves
  std::map<std::string, json> after;   // what the new release showed, before the migration
  json migrated;                       // as the new release stored it in its storage version
};

namespace {

// The index `version` has in status.storedVersions once the new storage version is added.
std::size_t storedIndex(std::vector<std::string> stored, const std::string& storage,
                        const std::string& version) {
  if (std::find(stored.begin(), stored.end(), storage) == stored.end()) stored.push_back(storage);
  return static_cast<std::size_t>(std::find(stored.begin(), stored.end(), version) -
                                  stored.begin());
}

// kube-apiserver's answer to a CRD update that drops a version still in status.storedVersions.
std::string storedVersionsMessage(const Crd& crd, std::size_t index, const std::string& version) {
  return fmt::format(
      "CustomResourceDefinition.apiextensions.k8s.io \"{}\" is invalid: status.storedVersions[{}]: "
      "Invalid value: \"{}\": must appear in spec.versions",
      crd.name, index, version);
}

// kube-apiserver's answer to an update of `object` whose validation fails with `errors`.
std::string invalidMessage(const Crd& crd, const json& object,
                           const std::vector<FieldError>& errors) {
  std::string list;
  for (const auto& e : errors) list += (list.empty() ? "" : ", ") + e.text;
  const std::string name = object.contains("metadata") && object["metadata"].is_object()
                               ? object["metadata"].value("name", std::string())
                               : std::string();
  return fmt::format("{}.{} \"{}\" is invalid: {}", crd.kind, crd.group, name,
                     errors.size() == 1 ? list : "[" + list + "]");
}

}  // namespace

PlayedObject UpgradePlay::play(const UpgradeObject& object, std::uint64_t seed, Converter& oldCalls,
                               Converter& newCalls) const {
  State s{object, oldCalls, newCalls, std::mt19937_64(seed), {}, {}, {}, {}, {}, {}, {},
          {},     {},       {}};
  s.oldContext = {acks_, old_.schemas(), object.object, object.origin, seed};
  s.newContext = {acks_, new_.schemas(), object.object, object.origin, seed};
  if (store(s) && crdChange(s)) {
    readAfterUpgrade(s);
    migrate(s);
    if (!s.migrated.is_null()) rollBack(s);
  }
  return {std::move(s.out), s.oldCount, s.newCount};
}

ReleaseRead UpgradePlay::read(State& s, bool old, const json& stored,
                              const std::string& version) const {
  ReleaseRead r =
      readAt((old ? old_ : new_).crd(), old ? s.oldCalls : s.newCalls, stored, version, s.uids);
  if (r.call) (old ? s.oldCount : s.newCount).count(r.call->http);
  return r;
}

bool UpgradePlay::store(State& s) const {
  const json& input = s.input.object;
  const std::string written = objectVersion(input);
  if (s.input.stored) {
    s.stored = input;
  } else {
    ReleaseRead w = read(s, true, input, old_.storage());
    if (!w.ok()) {
      s.out.push_back(rejection(
          storeProperty(), written, old_.storage(), w.call,
          fmt::format("the old release cannot store this object: kube-apiserver fails its create "
                      "at {} (the old webhook's {} -> {})",
                      written, written, old_.storage()),
          s.oldContext));
      return false;
    }
    s.stored = std::move(w.object);
    s.out.push_back(stepPassed(storeProperty(), written, old_.storage()));
  }
  s.storedAt = objectVersion(s.stored);
  for (const auto& version : old_.served()) {
    ReleaseRead r = read(s, true, s.stored, version);
    if (!r.ok()) {
      s.out.push_back(rejection(
          storeProperty(), s.storedAt, version, r.call,
          fmt::format("the old release cannot read what it stored: every read of this object at "
                      "{} fails (the old webhook's {} -> {})",
                      version, s.storedAt, version),
          s.oldContext));
      continue;
    }
    s.before[version] = std::move(r.object);
    s.out.push_back(stepPassed(storeProperty(), s.storedAt, version));
  }
  return true;
}

bool UpgradePlay::crdChange(State& s) const {
  const std::string& at = s.storedAt;
  if (!new_.hasVersion(at)) {
    const std::size_t index = storedIndex(plan_.storedVersions, new_.storage(), at);
    s.out.push_back(ownCause(
        crdChangeProperty(), at, at,
        {{"crd-change|stored-version-removed|" + at, Severity::Outage,
          fmt::format("the new CRD removes {}, a version objects are stored in: kube-apiserver "
                      "rejects the CRD update",
                      at)}},
        fmt::format("this object is stored in {}, which the new CRD no longer has: kube-apiserver "
                    "rejects the update of the CRD, and no release can read the object without {}",
                    at, at),
        {"keep " + at +
         " in spec.versions (served: false is enough) until every object stored "
         "in it is migrated and " +
         at + " is removed from status.storedVersions"},
        s.newContext, storedVersionsMessage(new_.crd(), index, at)));
    return false;
  }
  if (at == old_.storage() && new_.storage() != old_.storage() && !plan_.migrationStep)
    s.out.push_back(ownCause(
        crdChangeProperty(), old_.storage(), new_.storage(),
        {{fmt::format("crd-change|storage-without-migration|{}|{}", old_.storage(), new_.storage()),
          Severity::Rejected,
          fmt::format("the storage version moves from {} to {} without a migration step: stored "
                      "objects stay in {}, and {} stays in status.storedVersions, so no later "
                      "release can remove it",
                      old_.storage(), new_.storage(), old_.storage(), old_.storage())}},
        fmt::format("this object stays stored in {} after the upgrade: only a write moves it to {}",
                    old_.storage(), new_.storage()),
        {fmt::format("migrate every {} (a StorageVersionMigration of {}.{} among the release's "
                     "manifests, or an update of each object), then remove {} from "
                     "status.storedVersions; if the release migrates some other way, say so with "
                     "--migrated",
                     new_.crd().kind, new_.crd().plural, new_.crd().group, old_.storage())},
        s.newContext));
  for (const auto& version : s.input.requestedVersions) {
    const CrdVersion* v = new_.crd().version(version);
    if (v && v->served) continue;
    s.out.push_back(ownCause(
        crdChangeProperty(), at, version,
        {{"crd-change|unserved-still-requested|" + version, Severity::Rejected,
          fmt::format("the new CRD no longer serves {}, which clients still use: their reads and "
                      "writes at {} get 404 (NotFound)",
                      version, version)}},
        fmt::format("a client wrote this object at {} (its managedFields or its manifest say so), "
                    "and the new CRD {} {}",
                    version, v ? "sets served: false for" : "removes", version),
        {}, s.newContext));
  }
  return true;
}

void UpgradePlay::readAfterUpgrade(State& s) const {
  for (const auto& version : new_.served()) {
    ReleaseRead r = read(s, false, s.stored, version);
    if (!r.ok()) {
      s.out.push_back(rejection(
          readAfterUpgradeProperty(), s.storedAt, version, r.call,
          fmt::format("after the upgrade every read of this object at {} fails (the new "
                      "webhook's {} -> {}), and so does every write, delete and list that "
                      "touches it",
                      version, s.storedAt, version),
          s.newContext));
      continue;
    }
    auto before = s.before.find(version);
    if (before == s.before.end())
      s.out.push_back(stepPassed(readAfterUpgradeProperty(), s.storedAt, version));
    else
      s.out.push_back(compareReads(
          readAfterUpgradeProperty(), s.storedAt, version, before->second, r.object, r.call,
          fmt::format("after the upgrade, reading this object (stored in {}) at {} returns other "
                      "data than the old release returned",
                      s.storedAt, version),
          s.newContext));
    unwritable(s, version, r);
    s.after[version] = std::move(r.object);
  }
}

void UpgradePlay::unwritable(State& s, const std::string& version, const ReleaseRead& read) const {
  const CrdVersion* v = new_.crd().version(version);
  const auto errors = updateValidationErrors(read.object, v->schema);
  if (errors.empty()) {
    s.out.push_back(stepPassed(crdChangeProperty(), s.storedAt, version));
    return;
  }
  std::vector<Cause> causes;
  std::vector<std::string> details;
  for (const auto& e : errors) {
    const std::string path = normalisedTextPath(e.path, new_.schemas(), version);
    causes.push_back(
        {fmt::format("crd-change|unwritable|{}|{}", path, e.type), Severity::Rejected,
         fmt::format("the new schema of {} rejects stored objects as they read there: {}", version,
                     e.text),
         path, "unwritable|" + path});
    details.push_back(e.text);
  }
  details.push_back(
      "kube-apiserver validates every create and update at the version it is made at; with "
      "validation ratcheting (on by default since 1.30) an update that leaves a failing value "
      "as it was may be let through (see docs/upgrade.md)");
  s.out.push_back(ownCause(
      crdChangeProperty(), s.storedAt, version, std::move(causes),
      fmt::format("after the upgrade, kube-apiserver rejects the next update of this object at {}: "
                  "as it reads there, the new schema of {} does not accept it",
                  version, version),
      std::move(details), s.newContext, invalidMessage(new_.crd(), read.object, errors),
      read.call));
}

void UpgradePlay::migrate(State& s) const {
  const std::string& storage = new_.storage();
  ReleaseRead m = read(s, false, s.stored, storage);
  if (!m.ok()) {
    s.out.push_back(rejection(
        migrateProperty(), s.storedAt, storage, m.call,
        fmt::format("migrating this object to the new storage version {} fails (the new "
                    "webhook's {} -> {}): a storage version migration, and any update of it, fails",
                    storage, s.storedAt, storage),
        s.newContext));
    return;
  }
  s.migrated = std::move(m.object);
  for (const auto& version : new_.served()) {
    ReleaseRead r = read(s, false, s.migrated, version);
    if (!r.ok()) {
      s.out.push_back(rejection(
          migrateProperty(), s.storedAt, version, r.call,
          fmt::format("after the migration to {}, every read of this object at {} fails (the new "
                      "webhook's {} -> {})",
                      storage, version, storage, version),
          s.newContext));
      continue;
    }
    const json* before = nullptr;
    if (auto b = s.before.find(version); b != s.before.end())
      before = &b->second;
    else if (auto a = s.after.find(version); a != s.after.end())
      before = &a->second;
    if (before == nullptr)
      s.out.push_back(stepPassed(migrateProperty(), s.storedAt, version));
    else
      s.out.push_back(compareReads(
          migrateProperty(), s.storedAt, version, *before, r.object, r.call,
          fmt::format("after the migration to {}, reading this object at {} returns other data "
                      "than {} returned",
                      storage, version,
                      s.before.count(version) ? "the old release" : "the new one before it"),
          s.newContext));
  }
}

void UpgradePlay::rollBack(State& s) const {
  const std::string& storage = new_.storage();
  if (!old_.hasVersion(storage)) {
    const std::size_t index = storedIndex(plan_.storedVersions, storage, storage);
    s.out.push_back(ownCause(
        rollbackProperty(), storage, old_.storage(),
        {{"rollback|impossible|" + storage, Severity::Outage,
          fmt::format("rollback impossible once anything is written: the new storage version {} "
                      "is not a version of the old CRD (old storage {})",
                      storage, old_.storage())}},
        fmt::format("once the new release stores this object in {}, the old release cannot read "
                    "it: the old CRD has no {}, and kube-apiserver rejects restoring it",
                    storage, storage),
        {fmt::format("objects written by the new release are stored in {}; the old CRD has {} "
                     "only",
                     storage, fmt::join(old_.served(), ", ")),
         fmt::format("to keep a roll back possible, ship {} in a release before (served, not the "
                     "storage version), and move the storage version to it in the next one",
                     storage)},
        s.oldContext, storedVersionsMessage(old_.crd(), index, storage)));
    return;
  }
  for (const auto& version : old_.served()) {
    ReleaseRead r = read(s, true, s.migrated, version);
    if (!r.ok()) {
      s.out.push_back(rejection(
          rollbackProperty(), storage, version, r.call,
          fmt::format("after a roll back, the old release cannot read this object as the new one "
                      "stored it ({}): every read at {} fails (the old webhook's {} -> {})",
                      storage, version, storage, version),
          s.oldContext));
      continue;
    }
    auto before = s.before.find(version);
    if (before == s.before.end()) continue;
    s.out.push_back(compareReads(
        rollbackProperty(), storage, version, before->second, r.object, r.call,
        fmt::format("after a roll back, the old release reads this object (stored by the new one "
                    "in {}) at {} differently than before the upgrade",
                    storage, version),
        s.oldContext));
  }
}

}  // namespace convcheck
