// The webhook's code-coverage map: a System V shared-memory segment that an AFL++-instrumented
// webhook attaches to (by the id in __AFL_SHM_ID) and counts its edges in. Used by `convcheck
// fuzz` (engine/fuzz) when it starts the webhook, and by the tests of that coverage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace convcheck {

// The edges a map has room for when AFL_MAP_SIZE does not say: more than AFL++'s default of
// 65536, for webhooks whose libraries are instrumented too.
inline constexpr std::size_t kDefaultCoverageMapSize = std::size_t{1} << 20;

class SharedCoverageMap {
 public:
  // Creates and attaches a segment of `size` bytes (rounded up to AFL++'s 64-byte granule, at
  // least 65536) and marks it for removal at once: it lives while a process is attached, so it
  // goes away with convcheck and the webhook, however they end (Linux lets a marked segment be
  // attached by id). The error says why it could not be made.
  static std::variant<std::unique_ptr<SharedCoverageMap>, std::string> create(
      std::size_t size = kDefaultCoverageMapSize);
  // The map size `afl_map_size` (the AFL_MAP_SIZE variable's value; null or empty: the default)
  // asks for; the error names the variable and the value.
  static std::variant<std::size_t, std::string> sizeFrom(const char* aflMapSize);

  ~SharedCoverageMap();  // detaches (removal follows when no process is attached)
  SharedCoverageMap(const SharedCoverageMap&) = delete;
  SharedCoverageMap& operator=(const SharedCoverageMap&) = delete;

  int id() const { return id_; }
  std::size_t size() const { return size_; }
  // What the webhook needs in its environment to attach: __AFL_SHM_ID and AFL_MAP_SIZE, as
  // NAME=VALUE.
  std::vector<std::string> environment() const;

  std::span<std::uint8_t> counts() { return {map_, size_}; }
  std::span<const std::uint8_t> counts() const { return {map_, size_}; }
  void clear();
  // How many processes are attached now (this one included), -1 when that cannot be read.
  int attachedProcesses() const;

 private:
  SharedCoverageMap(int id, std::uint8_t* map, std::size_t size)
      : id_(id), map_(map), size_(size) {}

  int id_;
  std::uint8_t* map_;
  std::size_t size_;
};

}  // namespace convcheck
