// Runs the real convcheck binary as a child process and collects its exit status and reports.
// Used by the end-to-end tests in tests/integration.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/child_process.h"

namespace convcheck::test {

struct ConvcheckResult {
  ExitStatus status;
  std::string out;
  std::string err;
  std::string junit;                                  // the JUnit file's text ("" if not written)
  nlohmann::json json;                                // the --json results (null if not written)
  std::vector<std::string> failedProperties() const;  // <failure type=...> values, sorted, unique
};

// Runs `convcheck <args> --junit <tmp> --json <tmp>` (those before a `--` in args) with a time
// limit; `stdinText` is fed to stdin when not empty (through a file); `workingDir` empty = this
// process's. A JUnit file that xmllint does not validate against tests/reports/junit-10.xsd fails
// the calling test.
ConvcheckResult runConvcheck(std::vector<std::string> args, const std::string& stdinText = "",
                             std::chrono::milliseconds limit = std::chrono::seconds(240),
                             const std::string& workingDir = "");

// Runs `convcheck <args>` exactly (for commands that take no --junit: replay, minimize, certs) in
// `workingDir` ("" = this process's); `junit` and `json` stay empty.
ConvcheckResult runConvcheckExactly(std::vector<std::string> args,
                                    const std::string& workingDir = "");

// A scratch directory under $TMPDIR, removed with everything in it at the end of its scope.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix = "convcheck-it");
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The convcheck binary the tests run: this build's, or $CONVCHECK_TEST_BIN when set.
std::string convcheckBinary();

// The JSON document in `path` (a report or a bundle.json); null when it cannot be read or parsed.
nlohmann::json readJsonFile(const std::filesystem::path& path);

}  // namespace convcheck::test
