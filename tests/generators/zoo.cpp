#include "tests/generators/zoo.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kube/crd/crd_loader.h"

namespace convcheck::testing {

std::string zooDir() {
  const char* dir = std::getenv("CONVCHECK_ZOO_DIR");
  return dir && *dir ? dir : CONVCHECK_SOURCE_DIR "/corpora/crds";
}

std::vector<std::string> zooFiles() {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(zooDir()))
    if (e.is_regular_file() && (e.path().extension() == ".yaml" || e.path().extension() == ".json"))
      files.push_back(fs::relative(e.path(), zooDir()).string());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<ZooCrd> loadZooFile(const std::string& file, std::vector<std::string>* errors) {
  std::ifstream in(std::filesystem::path(zooDir()) / file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  LoadResult r = loadCrdText(text.str(), file);
  for (const auto& e : r.errors)
    if (errors) errors->push_back(e.text());
  std::vector<ZooCrd> out;
  for (auto& c : r.crds) out.push_back({file, std::move(c)});
  return out;
}

std::vector<ZooCrd> loadZoo(std::vector<std::string>* errors) {
  std::vector<ZooCrd> out;
  for (const auto& f : zooFiles())
    for (auto& z : loadZooFile(f, errors)) out.push_back(std::move(z));
  return out;
}

int envCount(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  const int n = std::atoi(v);
  return n > 0 ? n : fallback;
}

}  // namespace convcheck::testing
