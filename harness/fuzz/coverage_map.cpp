#include "harness/fuzz/coverage_map.h"

#include <sys/ipc.h>
#include <sys/shm.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

namespace convcheck {

namespace {

constexpr std::size_t kAflMinimumMapSize = 65536;  // AFL++'s MAP_SIZE
constexpr std::size_t kAflMapGranule = 64;         // AFL++ rounds map sizes up to this
constexpr std::size_t kAflMaximumMapSize = std::size_t{1} << 30;

std::size_t roundedMapSize(std::size_t size) {
  size = (size + kAflMapGranule - 1) / kAflMapGranule * kAflMapGranule;
  return size < kAflMinimumMapSize ? kAflMinimumMapSize : size;
}

}  // namespace

std::variant<std::size_t, std::string> SharedCoverageMap::sizeFrom(const char* aflMapSize) {
  if (!aflMapSize || !*aflMapSize) return kDefaultCoverageMapSize;
  const std::string_view text(aflMapSize);
  std::size_t size = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), size);
  if (ec != std::errc() || end != text.data() + text.size() || size == 0 ||
      size > kAflMaximumMapSize)
    return fmt::format("AFL_MAP_SIZE={}: expected a number of edges from 1 to {}", text,
                       kAflMaximumMapSize);
  return roundedMapSize(size);
}

std::variant<std::unique_ptr<SharedCoverageMap>, std::string> SharedCoverageMap::create(
    std::size_t size) {
  size = roundedMapSize(size);
  const int id = shmget(IPC_PRIVATE, size, IPC_CREAT | IPC_EXCL | 0600);
  if (id < 0)
    return fmt::format("cannot create a shared-memory coverage map of {} bytes: {}", size,
                       std::strerror(errno));
  void* map = shmat(id, nullptr, 0);
  const int attachErrno = errno;
  shmctl(id, IPC_RMID, nullptr);
  if (map == reinterpret_cast<void*>(-1))
    return fmt::format("cannot attach the shared-memory coverage map: {}",
                       std::strerror(attachErrno));
  return std::unique_ptr<SharedCoverageMap>(
      new SharedCoverageMap(id, static_cast<std::uint8_t*>(map), size));
}

SharedCoverageMap::~SharedCoverageMap() { shmdt(map_); }

std::vector<std::string> SharedCoverageMap::environment() const {
  return {fmt::format("__AFL_SHM_ID={}", id_), fmt::format("AFL_MAP_SIZE={}", size_)};
}

void SharedCoverageMap::clear() { std::memset(map_, 0, size_); }

int SharedCoverageMap::attachedProcesses() const {
  shmid_ds status{};
  if (shmctl(id_, IPC_STAT, &status) != 0) return -1;
  return static_cast<int>(status.shm_nattch);
}

}  // namespace convcheck
