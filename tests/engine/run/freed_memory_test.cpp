// releaseFreedMemory in a binary linked with jemalloc, as convcheck is: the pages of a freed large
// case go back to the system at once (no dirty pages left), not after jemalloc's decay time.
#include "engine/run/freed_memory.h"

#include <jemalloc/jemalloc.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace convcheck {
namespace {

// Dirty pages (freed, still resident) of every arena, from fresh statistics.
std::size_t dirtyPages() {
  std::uint64_t epoch = 1;
  std::size_t size = sizeof epoch;
  mallctl("epoch", &epoch, &size, &epoch, size);
  std::size_t pages = 0;
  size = sizeof pages;
  if (mallctl("stats.arenas.4096.pdirty", &pages, &size, nullptr, 0) != 0) return SIZE_MAX;
  return pages;
}

TEST(FreedMemory, AFreedCaseLeavesNoDirtyPagesUnderJemalloc) {
  {
    std::vector<std::unique_ptr<std::string>> nodes;  // like a JSON tree: many small blocks
    for (int i = 0; i < 200000; ++i)
      nodes.push_back(std::make_unique<std::string>(40, static_cast<char>('a' + i % 26)));
  }
  ASSERT_NE(dirtyPages(), SIZE_MAX) << "jemalloc statistics are not available";
  ASSERT_GT(dirtyPages(), 0u) << "the freed blocks are kept for reuse first (decay time)";
  releaseFreedMemory();
  EXPECT_EQ(dirtyPages(), 0u);
}

}  // namespace
}  // namespace convcheck
