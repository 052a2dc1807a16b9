#include "tests/integration/convcheck_binary.h"

#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "tests/support/test_pki.h"

namespace convcheck::test {

std::string convcheckBinary() {
  // CONVCHECK_TEST_BIN runs the tests against another build of convcheck (e.g. to compare).
  const char* other = std::getenv("CONVCHECK_TEST_BIN");
  return other && *other ? other : CONVCHECK_BIN;
}

std::vector<std::string> ConvcheckResult::failedProperties() const {
  std::set<std::string> ids;
  pugi::xml_document doc;
  if (doc.load_string(junit.c_str()))
    for (auto failure : doc.select_nodes("//failure"))
      ids.insert(failure.node().attribute("type").value());
  return {ids.begin(), ids.end()};
}

namespace {
std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}
// Every JUnit file a run writes is valid against the Jenkins xUnit junit-10 schema, whatever the
// webhook answered: a test fails otherwise.
void expectValidJunit(const std::filesystem::path& junit) {
  const std::string log = junit.string() + ".xmllint";
  const std::string command =
      "xmllint --noout --schema '" JUNIT_XSD "' '" + junit.string() + "' > '" + log + "' 2>&1";
  if (std::system(command.c_str()) != 0)
    ADD_FAILURE() << junit.string() << " is not valid against junit-10.xsd:\n" << slurp(log);
}

}  // namespace

ConvcheckResult runConvcheck(std::vector<std::string> args, const std::string& stdinText,
                             std::chrono::milliseconds limit, const std::string& workingDir) {
  static int counter = 0;
  auto dir = std::filesystem::temp_directory_path() /
             ("convcheck-it-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(dir);
  auto junit = dir / "junit.xml", json = dir / "results.json";
  std::vector<std::string> argv = {convcheckBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  // Before a `-- COMMAND` (the webhook run starts), whose arguments they are not.
  argv.insert(std::find(argv.begin(), argv.end(), "--"),
              {"--junit", junit.string(), "--json", json.string()});
  std::vector<std::string> wrapped = argv;
  if (!stdinText.empty()) {
    auto input = dir / "stdin.txt";
    std::ofstream(input) << stdinText;
    // ChildProcess takes no stdin: let a shell redirect it.
    std::string cmd;
    for (const auto& a : argv) cmd += "'" + a + "' ";
    wrapped = {"/bin/sh", "-c", cmd + "< '" + input.string() + "'"};
  }
  ChildProcess process(wrapped, {{"NO_COLOR=1"}, workingDir});
  ConvcheckResult result;
  auto status = process.wait(limit);
  result.status = status ? *status : process.stop();
  result.out = process.stdoutText();
  result.err = process.stderrText();
  if (std::filesystem::exists(junit)) {
    result.junit = slurp(junit);
    expectValidJunit(junit);
  }
  if (std::filesystem::exists(json))
    result.json = nlohmann::json::parse(slurp(json), nullptr, false);
  std::filesystem::remove_all(dir);
  return result;
}

ConvcheckResult runConvcheckExactly(std::vector<std::string> args, const std::string& workingDir) {
  args.insert(args.begin(), convcheckBinary());
  ChildProcess process(args, {{"NO_COLOR=1"}, workingDir});
  ConvcheckResult result;
  auto status = process.wait(std::chrono::seconds(240));
  result.status = status ? *status : process.stop();
  result.out = process.stdoutText();
  result.err = process.stderrText();
  return result;
}

ScratchDir::ScratchDir(const std::string& prefix) : path_(makeTempDir(prefix)) {}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

nlohmann::json readJsonFile(const std::filesystem::path& path) {
  return nlohmann::json::parse(slurp(path), nullptr, false);
}

}  // namespace convcheck::test
