// A fresh directory for one in-process fuzzing test, named after the test process (ctest runs
// tests side by side) and removed when the test ends. Used by the tests in tests/engine/inprocess.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace convcheck::testing {

struct ScratchDir {
  explicit ScratchDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() /
             ("convcheck-inprocess-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  std::filesystem::path path;
};

}  // namespace convcheck::testing
