// The webhook's coverage map: a shared-memory segment that another process attaches by the id
// in its environment (also after it was marked for removal), sized as AFL_MAP_SIZE asks, and
// gone once no process is attached.
#include "harness/fuzz/coverage_map.h"

#include <gtest/gtest.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

namespace convcheck {
namespace {

std::unique_ptr<SharedCoverageMap> makeMap(std::size_t size = kDefaultCoverageMapSize) {
  auto made = SharedCoverageMap::create(size);
  if (auto* error = std::get_if<std::string>(&made)) ADD_FAILURE() << *error;
  return std::move(std::get<std::unique_ptr<SharedCoverageMap>>(made));
}

TEST(SharedCoverageMap, NamesItsIdAndSizeForTheWebhook) {
  auto map = makeMap(200000);
  EXPECT_EQ(map->size(), 200000u);  // a multiple of 64
  EXPECT_EQ(map->environment(),
            (std::vector<std::string>{"__AFL_SHM_ID=" + std::to_string(map->id()),
                                      "AFL_MAP_SIZE=200000"}));
  EXPECT_EQ(makeMap(100)->size(), 65536u);  // never below AFL++'s default
  EXPECT_EQ(makeMap(65537)->size(), 65600u);
}

TEST(SharedCoverageMap, AProcessAttachesItByIdAfterItWasMarkedForRemoval) {
  auto map = makeMap();
  map->clear();
  EXPECT_EQ(map->attachedProcesses(), 1);
  const int id = map->id();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // As the AFL++ runtime does in the webhook: shmat(atoi(getenv("__AFL_SHM_ID"))).
    void* attached = shmat(id, nullptr, 0);
    if (attached == reinterpret_cast<void*>(-1)) _exit(1);
    static_cast<std::uint8_t*>(attached)[4242] = 7;
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(map->counts()[4242], 7);
  map->clear();
  EXPECT_EQ(map->counts()[4242], 0);
}

TEST(SharedCoverageMap, IsGoneOnceNoProcessIsAttached) {
  int id = 0;
  {
    auto map = makeMap();
    id = map->id();
    shmid_ds status{};
    EXPECT_EQ(shmctl(id, IPC_STAT, &status), 0);
  }
  shmid_ds status{};
  EXPECT_NE(shmctl(id, IPC_STAT, &status), 0);
}

TEST(SharedCoverageMap, SizeFromAflMapSize) {
  EXPECT_EQ(std::get<std::size_t>(SharedCoverageMap::sizeFrom(nullptr)), kDefaultCoverageMapSize);
  EXPECT_EQ(std::get<std::size_t>(SharedCoverageMap::sizeFrom("")), kDefaultCoverageMapSize);
  EXPECT_EQ(std::get<std::size_t>(SharedCoverageMap::sizeFrom("300000")), 300032u);
  for (const char* bad : {"12k", "-1", "0", "99999999999"}) {
    auto size = SharedCoverageMap::sizeFrom(bad);
    ASSERT_TRUE(std::holds_alternative<std::string>(size)) << bad;
    EXPECT_NE(std::get<std::string>(size).find("AFL_MAP_SIZE="), std::string::npos);
  }
}

}  // namespace
}  // namespace convcheck
