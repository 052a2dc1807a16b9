#include "engine/upgrade/migration_step.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/corpus/sample_objects.h"

namespace convcheck {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kKind = "StorageVersionMigration";

bool migratesCrd(const json& object, const Crd& crd) {
  if (!object.is_object() || object.value("kind", std::string()) != kKind) return false;
  const std::string apiVersion = object.value("apiVersion", std::string());
  if (apiVersion.rfind("storagemigration.k8s.io/", 0) != 0 &&
      apiVersion.rfind("migration.k8s.io/", 0) != 0)
    return false;
  const json spec = object.value("spec", json::object());
  const json resource = spec.is_object() ? spec.value("resource", json::object()) : json();
  return resource.is_object() && resource.value("group", std::string()) == crd.group &&
         resource.value("resource", std::string()) == crd.plural;
}

bool fileMigrates(const fs::path& file, const Crd& crd) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& doc : readObjects(text.str(), file.string()).objects)
    if (migratesCrd(doc.object, crd)) return true;
  return false;
}

}  // namespace

bool hasStorageMigration(const std::string& manifests, const Crd& crd) {
  std::error_code ec;
  if (manifests.empty() || manifests == "-" || manifests.rfind("kube://", 0) == 0) return false;
  if (!fs::is_directory(manifests, ec)) return fileMigrates(manifests, crd);
  for (const auto& entry : fs::directory_iterator(manifests, ec)) {
    const std::string ext = entry.path().extension().string();
    if ((ext == ".yaml" || ext == ".yml" || ext == ".json") && fileMigrates(entry.path(), crd))
      return true;
  }
  return false;
}

bool isSkippedStorageMigration(const std::string& warning) {
  return warning.find("skipped: ") != std::string::npos &&
         warning.find(std::string(" ") + kKind) != std::string::npos;
}

}  // namespace convcheck
