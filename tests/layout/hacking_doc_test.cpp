// docs/hacking.md stays true: every file and folder it names exists, and each recipe's list (where
// a new property, report format or subcommand registers) is where the recipe says and holds every
// unit of its kind that the sources define.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace convcheck {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = CONVCHECK_SOURCE_DIR;

std::string readText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string hackingDoc() { return readText(kRoot / "docs" / "hacking.md"); }

// Every file name in the source tree (outside build directories and .git).
std::set<std::string> fileNames() {
  std::set<std::string> names;
  for (auto it = fs::recursive_directory_iterator(kRoot); it != fs::recursive_directory_iterator();
       ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (name == ".git" || name.rfind("build", 0) == 0 || name == "out")) {
      it.disable_recursion_pending();
      continue;
    }
    names.insert(name);
  }
  return names;
}

// The words inside `code spans` (fenced blocks left out) that name a file or folder of the
// repository: with a '/' or a file extension, and no placeholder (<target>, *, …).
std::vector<std::string> namedPaths(std::string doc) {
  static const std::regex fenced("```[^`]*```");
  doc = std::regex_replace(doc, fenced, "");
  static const std::regex span("`([^`]+)`");
  static const std::regex pathLike(R"(^\.?[A-Za-z0-9_][A-Za-z0-9_.\-]*(/[A-Za-z0-9_.\-]+)*/?$)");
  static const std::regex extension(R"(\.(cpp|h|hpp|txt|md|sh|js|mjs|cmake|yaml|py|json)$)");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), span); it != std::sregex_iterator();
       ++it) {
    std::istringstream words((*it)[1].str());
    for (std::string word; words >> word;) {
      if (!std::regex_match(word, pathLike)) continue;
      if (word.find('/') == std::string::npos && !std::regex_search(word, extension)) continue;
      out.push_back(word);
    }
  }
  return out;
}

TEST(HackingDoc, EveryFileAndFolderItNamesExists) {
  const auto names = fileNames();
  const auto paths = namedPaths(hackingDoc());
  ASSERT_GT(paths.size(), 40u) << "the page names the files it is about";
  std::vector<std::string> missing;
  for (const auto& path : paths) {
    const bool found =
        path.find('/') != std::string::npos ? fs::exists(kRoot / path) : names.count(path) > 0;
    if (!found) missing.push_back(path);
  }
  EXPECT_TRUE(missing.empty()) << ::testing::PrintToString(missing);
}

// The recipes: section title -> the file its "The list: `FILE`" line names.
std::map<std::string, std::string> recipeLists(const std::string& doc) {
  std::map<std::string, std::string> out;
  const auto recipes = doc.find("\n## Recipes\n");
  if (recipes == std::string::npos) return out;
  static const std::regex section(R"(\n### ([^\n]+)\n)");
  static const std::regex list(R"(\nThe list: `([^`]+)`)");
  const std::string text = doc.substr(recipes);
  std::vector<std::pair<std::string, std::size_t>> starts;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), section);
       it != std::sregex_iterator(); ++it)
    starts.push_back({(*it)[1].str(), static_cast<std::size_t>(it->position())});
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::size_t end = i + 1 < starts.size() ? starts[i + 1].second : text.size();
    const std::string body = text.substr(starts[i].second, end - starts[i].second);
    std::smatch m;
    if (std::regex_search(body, m, list)) out[starts[i].first] = m[1].str();
  }
  return out;
}

// The names `definition` captures (group 1) in the files of `folder` whose names match `files`.
std::set<std::string> definedIn(const std::string& folder, const std::regex& files,
                                const std::regex& definition) {
  std::set<std::string> out;
  for (const auto& entry : fs::directory_iterator(kRoot / folder)) {
    if (!std::regex_match(entry.path().filename().string(), files)) continue;
    const std::string text = readText(entry.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), definition);
         it != std::sregex_iterator(); ++it)
      out.insert((*it)[1].str());
  }
  return out;
}

// Each unit of the recipe's kind that the sources define is named in its list.
void expectListed(const std::string& listFile, const std::set<std::string>& units) {
  ASSERT_FALSE(units.empty()) << "no unit found for " << listFile;
  const std::string list = readText(kRoot / listFile);
  for (const auto& unit : units)
    EXPECT_TRUE(std::regex_search(list, std::regex("\\b" + unit + "\\b")))
        << unit << " is not in " << listFile;
}

TEST(HackingDoc, EachRecipeNamesTheListItsUnitsAreIn) {
  const auto lists = recipeLists(hackingDoc());
  for (const char* recipe :
       {"A new property", "A new report format", "A new subcommand", "A new target kind"}) {
    ASSERT_TRUE(lists.count(recipe)) << "no \"The list:\" line in the recipe " << recipe;
    EXPECT_TRUE(fs::is_regular_file(kRoot / lists.at(recipe))) << lists.at(recipe);
  }
  expectListed(lists.at("A new property"),
               definedIn("properties/checks", std::regex(R"(.*\.cpp)"),
                         std::regex(R"(const Property& (\w+Property)\(\) \{)")));
  expectListed(lists.at("A new report format"),
               definedIn("reports", std::regex(R"(.*_report\.h)"),
                         std::regex(R"(std::string (write\w+)\(const RunReport& report,)")));
  expectListed(lists.at("A new subcommand"),
               definedIn("app/cli", std::regex(R"(.*_command\.cpp)"),
                         std::regex(R"(\nCommand (\w+Command)\(\) \{)")));
}

}  // namespace
}  // namespace convcheck
