#include "engine/upgrade/upgrade_objects.h"
#include "harness/plan/seed_salts.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "engine/upgrade/release_reads.h"
#include "harness/cluster/cluster_reads.h"
#include "harness/corpus/sample_objects.h"
#include "harness/plan/planned_batch.h"
#include "kube/apiserver/group_version.h"

namespace convcheck {

using nlohmann::json;

namespace {

std::uint64_t mix(std::uint64_t seed, const std::string& text) {
  std::uint64_t h = salted(seed, SeedSalt::UpgradeTextHash);
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::string groupOf(const std::string& apiVersion) {
  auto gv = parseGroupVersion(apiVersion);
  return gv ? gv->group : std::string();
}

void addUnique(std::vector<std::string>& list, const std::string& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

void generate(const KindContext& kind, const std::vector<std::string>& storedVersions,
              const ObjectSources& sources, std::vector<UpgradeObject>& out) {
  const Crd& crd = kind.crd();
  const std::string storage = storageVersionOf(crd);
  for (const auto& version : kind.versions()) {
    const CrdVersion* v = crd.version(version);
    const bool written = v->served || version == storage;
    const bool storedEarlier =
        version != storage &&
        std::find(storedVersions.begin(), storedVersions.end(), version) != storedVersions.end();
    for (bool stored : {false, true}) {
      if (stored ? !storedEarlier : !written) continue;
      const std::string what = stored ? "stored in " + version : "written at " + version;
      for (auto& object :
           generateObjects(kind.generators().at(version), mix(sources.seed, crd.name + " " + what),
                           sources.generatedPerVersion)) {
        object["apiVersion"] = crd.apiVersion(version);
        object["kind"] = crd.kind;
        out.push_back({std::move(object), "generated, " + what, stored});
      }
    }
  }
}

void fromCluster(const KindContext& kind, const ObjectSources& sources, UpgradeInputs& in) {
  const Crd& crd = kind.crd();
  const std::string storage = storageVersionOf(crd);
  StoredObjects read = readStoredObjects(sources.cluster, crd, storage, sources.clusterObjects);
  if (!read.error.empty()) {
    in.notes.push_back("--cluster-objects: " + read.error);
    return;
  }
  in.notes.push_back(fmt::format("--cluster-objects: read {} stored object(s) at {}",
                                 read.objects.size(), storage));
  for (auto& object : read.objects) {
    const json metadata = object.value("metadata", json::object());
    std::string name = metadata.value("namespace", std::string());
    name += (name.empty() ? "" : "/") + metadata.value("name", std::string());
    auto requested = managedFieldVersions(object, crd);
    in.objects.push_back({std::move(object), "cluster " + name, true, std::move(requested)});
  }
}

void fromFile(const KindContext& kind, const std::string& file, std::uint64_t seed,
              UpgradeInputs& in) {
  std::ifstream stream(file, std::ios::binary);
  if (!stream) {
    in.errors.push_back(fmt::format("--objects-from {}: cannot read the file", file));
    return;
  }
  std::stringstream text;
  text << stream.rdbuf();
  ObjectDocuments docs = readObjects(text.str(), file);
  for (auto& e : docs.errors) in.errors.push_back(std::move(e));
  const Crd& crd = kind.crd();
  int taken = 0;
  for (auto& doc : docs.objects) {
    if (doc.object.value("kind", std::string()) != crd.kind ||
        groupOf(doc.object.value("apiVersion", std::string())) != crd.group)
      continue;
    const std::string version = objectVersion(doc.object);
    if (!kind.hasVersion(version)) {
      in.errors.push_back(
          fmt::format("{}: apiVersion {}: the old CRD {} has no version {} with a "
                      "schema",
                      doc.where, doc.object.value("apiVersion", ""), crd.name, version));
      continue;
    }
    json object = asStoredObject(std::move(doc.object), crd, mix(seed, doc.where));
    auto requested = managedFieldVersions(object, crd);
    addUnique(requested, version);
    in.objects.push_back({std::move(object), doc.where, false, std::move(requested)});
    ++taken;
  }
  in.notes.push_back(fmt::format("--objects-from {}: {} {} object(s)", file, taken, crd.kind));
}

}  // namespace

std::vector<std::string> managedFieldVersions(const json& object, const Crd& crd) {
  std::vector<std::string> versions;
  const json metadata = object.value("metadata", json::object());
  const json entries =
      metadata.is_object() ? metadata.value("managedFields", json::array()) : json::array();
  if (!entries.is_array()) return versions;
  for (const auto& entry : entries) {
    if (!entry.is_object()) continue;
    const std::string apiVersion = entry.value("apiVersion", std::string());
    if (groupOf(apiVersion) == crd.group && crd.version(objectVersion(entry)))
      addUnique(versions, objectVersion(entry));
  }
  return versions;
}

UpgradeInputs upgradeObjects(const KindContext& oldKind,
                             const std::vector<std::string>& storedVersions,
                             const ObjectSources& sources) {
  UpgradeInputs in;
  if (sources.generatedPerVersion > 0) generate(oldKind, storedVersions, sources, in.objects);
  if (sources.clusterObjects > 0) fromCluster(oldKind, sources, in);
  for (const auto& file : sources.files) fromFile(oldKind, file, sources.seed, in);
  // Names and uids are unique in one cluster: the generated ones are made so, as in a LIST.
  std::vector<json> all;
  std::vector<std::size_t> slots;
  for (std::size_t i = 0; i < in.objects.size(); ++i) {
    all.push_back(std::move(in.objects[i].object));
    slots.push_back(i);
  }
  all = uniqueIdentities(std::move(all), slots, sources.seed);
  for (std::size_t i = 0; i < all.size(); ++i) in.objects[i].object = std::move(all[i]);
  return in;
}

}  // namespace convcheck
