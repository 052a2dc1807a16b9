// The in-process fuzzing library sits on convcheck's layers up to reports/: its sources include
// nothing from app/ (a C++ converter's fuzz target links it without the command line).
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace convcheck {
namespace {

namespace fs = std::filesystem;

TEST(InProcessLayering, TheLibraryIncludesNothingFromApp) {
  const std::regex include(R"(^\s*#\s*include\s+"([^"]+)\")");
  std::vector<std::string> headers, fromApp;
  for (const auto& entry :
       fs::directory_iterator(fs::path(CONVCHECK_SOURCE_DIR) / "fuzz/inprocess")) {
    std::ifstream in(entry.path());
    std::smatch m;
    for (std::string line; std::getline(in, line);) {
      if (!std::regex_search(line, m, include)) continue;
      headers.push_back(m[1]);
      if (headers.back().rfind("app/", 0) == 0)
        fromApp.push_back(entry.path().filename().string() + " includes " + headers.back());
    }
  }
  EXPECT_GT(headers.size(), 10u) << "no sources read";
  EXPECT_TRUE(fromApp.empty()) << ::testing::PrintToString(fromApp);
}

}  // namespace
}  // namespace convcheck
