// The house plan holds: source folders form layers (kube, generators, harness, properties, shrink,
// reports, engine, app) whose includes only point down or within a layer, and no two folders
// include each other, directly or through others.
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

int layerOf(const std::string& path) {
  const std::string top = path.substr(0, path.find('/'));
  auto it = std::find(kLayers.begin(), kLayers.end(), top);
  return it == kLayers.end() ? -1 : static_cast<int>(it - kLayers.begin());
}

struct Include {
  std::string fromFile;  // relative to the source root
  std::string header;    // as written, relative to the source root
};

std::vector<Include> projectIncludes() {
  const fs::path root = CONVCHECK_SOURCE_DIR;
  const std::regex include(R"(^\s*#\s*include\s+"([^"]+)\")");
  std::vector<Include> out;
  for (const auto& layer : kLayers) {
    for (const auto& entry : fs::recursive_directory_iterator(root / layer)) {
      const auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp" && ext != ".hpp")) continue;
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
    const int from = layerOf(inc.fromFile), to = layerOf(inc.header);
    if (from >= 0 && to > from) upward.push_back(inc.fromFile + " includes " + inc.header);
  }
  EXPECT_TRUE(upward.empty()) << ::testing::PrintToString(upward);
}

TEST(Layering, NoTwoFoldersDependOnEachOther) {
  std::map<std::string, std::set<std::string>> edges;
  for (const auto& inc : projectIncludes()) {
    if (layerOf(inc.header) < 0) continue;
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
