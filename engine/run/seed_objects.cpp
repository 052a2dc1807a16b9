#include "engine/run/seed_objects.h"

#include <fmt/format.h>

#include "harness/cluster/cluster_reads.h"

namespace convcheck {

CorpusContents loadSeedObjects(const RunConfig& config, const Crd& crd,
                               const std::vector<std::string>& versions) {
  CorpusContents contents =
      config.corpusDir.empty() ? CorpusContents{} : CorpusStore(config.corpusDir).load(crd);
  if (config.clusterObjects <= 0) return contents;
  for (const auto& version : versions) {
    const CrdVersion* v = crd.version(version);
    if (v == nullptr || !v->served) continue;
    StoredObjects read = readStoredObjects(config.cluster, crd, version, config.clusterObjects);
    if (!read.error.empty())
      contents.notes.push_back("--cluster-objects: " + read.error);
    else
      contents.notes.push_back(fmt::format("--cluster-objects: read {} stored object(s) at {}",
                                           read.objects.size(), version));
    for (auto& object : read.objects) {
      const auto& metadata = object.value("metadata", nlohmann::json::object());
      std::string name = metadata.value("namespace", std::string());
      name += (name.empty() ? "" : "/") + metadata.value("name", std::string());
      contents.samples.push_back(
          StoredSample{fmt::format("cluster {} {}", version, name), version, std::move(object)});
    }
  }
  return contents;
}

}  // namespace convcheck
