// Shared by the corpus tests: the example CronTab CRD with its generators and checkers, and a
// scratch directory removed at the end of each test.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include "engine/run/kind_context.h"
#include "kube/crd/crd_loader.h"

namespace convcheck::testing {

inline const KindContext& cronTabKind() {
  static const KindContext kind = [] {
    std::istringstream none;
    LoadResult loaded = loadCrdInput(
        std::string(CONVCHECK_EXAMPLES_DIR) + "/crds/crontabs.stable.example.com.yaml", none);
    if (!loaded.ok()) throw std::runtime_error("cannot load the CronTab CRD");
    auto compiled = KindContext::compile(loaded.crds.front());
    if (auto* e = std::get_if<KindContext::Error>(&compiled)) throw std::runtime_error(e->message);
    return std::get<KindContext>(std::move(compiled));
  }();
  return kind;
}

class ScratchDir {
 public:
  ScratchDir() {
    static int counter = 0;
    path_ =
        std::filesystem::temp_directory_path() /
        ("convcheck-corpus-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }
  void write(const std::string& relative, const std::string& text) const {
    auto p = path_ / relative;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace convcheck::testing
