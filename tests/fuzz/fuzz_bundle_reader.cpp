// libFuzzer target: `convcheck replay`'s bundle reader on an arbitrary bundle.json (written to a
// private temporary directory, since readBundle reads a directory).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "reports/bundle_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path dir = [] {
    // /dev/shm when there is one: the reader is called once per input.
    auto base = std::filesystem::exists("/dev/shm") ? std::filesystem::path("/dev/shm")
                                                    : std::filesystem::temp_directory_path();
    auto d = base / ("convcheck-fuzz-bundle-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  {
    std::ofstream out(dir / "bundle.json", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  auto bundle = convcheck::readBundle(dir.string());
  (void)bundle;
  return 0;
}
