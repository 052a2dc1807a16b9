// The house plan holds: source folders form layers (kube, generators, harness, properties, shrink,
// reports, engine, app) whose includes only point down or within a layer, the folders that use
// the libraries from outside (examples, bench) include no command line, no two folders include
// each other, directly or through others, and every folder with sources is one of these (or
// tests/).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace convcheck {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kLayers = {"kube",   "generators", "harness", "properties",
                                          "shrink", "reports",    "engine",  "app"};
// Folders beside app/ that use the libraries: the example webhook and the in-process fuzz targets
// (examples/), the benchmarks (bench/), and the build's own sources (cmake/: the portable
// binaries' glibc shims). They may include every layer but app/.
const std::vector<std::string> kUsers = {"examples", "bench", "cmake"};

std::string topOf(const std::string& path) { return path.substr(0, path.find('/')); }

int layerOf(const std::string& path) {
  auto it = std::find(kLayers.begin(), kLayers.end(), topOf(path));
  return it == kLayers.end() ? -1 : static_cast<int>(it - kLayers.begin());
}

bool isUser(const std::string& path) {
  return std::find(kUsers.begin(), kUsers.end(), topOf(path)) != kUsers.end();
}

bool isSource(const fs::path& file) {
  const auto ext = file.extension();
  return ext == ".h" || ext == ".cpp" || ext == ".hpp";
}

struct Include {
  std::string fromFile;  // relative to the source root
  std::string header;    // as written, relative to the source root
};

std::vector<Include> projectIncludes() {
  const fs::path root = CONVCHECK_SOURCE_DIR;
  const std::regex include(R"(^\s*#\s*include\s+"([^"]+)\")");
  std::vector<Include> out;
  std::vector<std::string> folders = kLayers;
  folders.insert(folders.end(), kUsers.begin(), kUsers.end());
  for (const auto& folder : folders) {
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      if (!entry.is_regular_file() || !isSource(entry.path())) continue;
      std::ifstream in(entry.path());
      std::string line;
      std::smatch m;
      while (std::getline(in, line))
        if (std::regex_search(line, m, include))
          out.push_back({fs::relative(entry.path(), root).generic_string(), m[1]});
    }
  }
  return out;
}

std::string folderOf(const std::string& path) { return fs::path(path).parent_path().string(); }

TEST(Layering, TheSourceTreeHasIncludesToCheck) {
  // Guards the tests below against passing on an empty or misplaced tree.
  EXPECT_GT(projectIncludes().size(), 300u);
}

TEST(Layering, NoIncludePointsFromALowerLayerToAHigherOne) {
  std::vector<std::string> upward;
  for (const auto& inc : projectIncludes()) {
    // The users of the libraries are above every layer: no layer includes them.
    const int from = layerOf(inc.fromFile);
    const int to = isUser(inc.header) ? static_cast<int>(kLayers.size()) : layerOf(inc.header);
    if (from >= 0 && to > from) upward.push_back(inc.fromFile + " includes " + inc.header);
  }
  EXPECT_TRUE(upward.empty()) << ::testing::PrintToString(upward);
}

TEST(Layering, OnlyTheCommandsAndTheirTestsIncludeTheCommandLine) {
  std::vector<std::string> fromOutside;
  for (const auto& inc : projectIncludes())
    if (topOf(inc.header) == "app" && topOf(inc.fromFile) != "app")
      fromOutside.push_back(inc.fromFile + " includes " + inc.header);
  EXPECT_TRUE(fromOutside.empty()) << ::testing::PrintToString(fromOutside);
}

TEST(Layering, TheExamplesAndTheInProcessHarnessAreChecked) {
  std::set<std::string> files;
  for (const auto& inc : projectIncludes()) files.insert(inc.fromFile);
  for (const std::string file :
       {"engine/inprocess/converter_fuzzer.cpp", "examples/inprocess/fuzz_example_converter.cpp",
        "examples/webhook/review_handler.cpp"})
    EXPECT_TRUE(files.count(file)) << file << " was not read";
}

TEST(Layering, EveryFolderWithSourcesIsALayerAUserOrTests) {
  const fs::path root = CONVCHECK_SOURCE_DIR;
  std::vector<std::string> unknown;
  for (const auto& top : fs::directory_iterator(root)) {
    const std::string name = top.path().filename().string();
    if (!top.is_directory() || name.empty() || name[0] == '.' || name == "tests" ||
        name.rfind("build", 0) == 0 || layerOf(name) >= 0 || isUser(name))
      continue;
    for (const auto& entry : fs::recursive_directory_iterator(top.path()))
      if (entry.is_regular_file() && isSource(entry.path())) {
        unknown.push_back(fs::relative(entry.path(), root).generic_string());
        break;
      }
  }
  EXPECT_TRUE(unknown.empty()) << "sources outside the layers (add the folder to kLayers or "
                                  "kUsers): "
                               << ::testing::PrintToString(unknown);
}

TEST(Layering, NoTwoFoldersDependOnEachOther) {
  std::map<std::string, std::set<std::string>> edges;
  for (const auto& inc : projectIncludes()) {
    if (layerOf(inc.header) < 0 && !isUser(inc.header)) continue;
    const std::string a = folderOf(inc.fromFile), b = folderOf(inc.header);
    if (a != b) edges[a].insert(b);
  }
  std::vector<std::string> cycles;
  for (const auto& [start, _] : edges) {
    std::set<std::string> seen;
    std::vector<std::string> stack(edges[start].begin(), edges[start].end());
    while (!stack.empty()) {
      std::string f = stack.back();
      stack.pop_back();
      if (f == start) {
        cycles.push_back(start);
        break;
      }
      if (!seen.insert(f).second) continue;
      for (const auto& next : edges[f]) stack.push_back(next);
    }
  }
  EXPECT_TRUE(cycles.empty()) << "folders on a cycle: " << ::testing::PrintToString(cycles);
}

}  // namespace
}  // namespace convcheck
