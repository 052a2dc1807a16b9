// The webhook's code coverage as libFuzzer feedback: AFL++'s hit-count classes, the edges of a
// map written (folded, entry 0 left out) into the counters, and the counters' region lying in
// libFuzzer's extra-counters section apart from the behaviour features.
#include "engine/fuzz/afl_coverage.h"

#include <gtest/gtest.h>

#include <vector>

#include "engine/fuzz/libfuzzer_driver.h"

namespace convcheck {
namespace {

TEST(HitCountClass, FollowsAflBuckets) {
  const std::vector<std::pair<int, int>> expected = {
      {0, 0},   {1, 1},   {2, 2},   {3, 4},   {4, 8},    {7, 8},     {8, 16},
      {15, 16}, {16, 32}, {31, 32}, {32, 64}, {127, 64}, {128, 128}, {255, 128}};
  for (auto [hits, cls] : expected)
    EXPECT_EQ(hitCountClass(static_cast<std::uint8_t>(hits)), cls) << hits;
}

TEST(WriteEdgeCounters, WritesTheClassOfEachHitEdgeAndCountsThem) {
  std::vector<std::uint8_t> map(4096, 0);
  map[0] = 1;  // set by the AFL++ runtime when it attaches: not an edge
  map[5] = 1;
  map[8] = 3;  // the first edge of a word
  map[1000] = 40;
  map[4095] = 200;  // the map's last byte
  std::vector<std::uint8_t> counters(8192, 0);
  EXPECT_EQ(writeEdgeCounters(map, counters), 4u);
  EXPECT_EQ(counters[0], 0);
  EXPECT_EQ(counters[5], 1);
  EXPECT_EQ(counters[8], 4);
  EXPECT_EQ(counters[1000], 64);
  EXPECT_EQ(counters[4095], 128);
  std::size_t set = 0;
  for (auto c : counters) set += c != 0;
  EXPECT_EQ(set, 4u);
}

TEST(WriteEdgeCounters, FoldsAMapLargerThanTheCountersKeepingTheLargerClass) {
  std::vector<std::uint8_t> map(300, 0);
  map[10] = 1;
  map[110] = 20;  // 110 % 100 == 10
  map[299] = 2;
  std::vector<std::uint8_t> counters(100, 0);
  EXPECT_EQ(writeEdgeCounters(map, counters), 3u);
  EXPECT_EQ(counters[10], 32);
  EXPECT_EQ(counters[99], 2);
}

TEST(WriteEdgeCounters, AnEmptyMapSetsNothing) {
  std::vector<std::uint8_t> map(65536, 0);
  std::vector<std::uint8_t> counters(1024, 0);
  EXPECT_EQ(writeEdgeCounters(map, counters), 0u);
  for (auto c : counters) EXPECT_EQ(c, 0);
}

TEST(CoverageCounters, LieInLibFuzzersSectionApartFromTheBehaviourFeatures) {
  const auto edges = coverageCounters();
  const auto behaviour = extraCounters();
  EXPECT_GE(edges.size(), std::size_t{1} << 16);
  const bool apart = edges.data() + edges.size() <= behaviour.data() ||
                     behaviour.data() + behaviour.size() <= edges.data();
  EXPECT_TRUE(apart);
}

TEST(CaseCoverage, ClearsTheMapBeforeACaseAndFeedsItsEdgesAfter) {
  auto made = SharedCoverageMap::create(65536);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SharedCoverageMap>>(made));
  auto& map = *std::get<std::unique_ptr<SharedCoverageMap>>(made);
  map.counts()[77] = 9;  // left from an earlier case
  CaseCoverage coverage(map);
  coverage.beforeCase();
  EXPECT_EQ(map.counts()[77], 0);
  map.counts()[123] = 1;  // what the webhook ran for this case
  map.counts()[124] = 5;
  auto counters = coverageCounters();
  std::fill(counters.begin(), counters.end(), 0);
  EXPECT_EQ(coverage.afterCase(), 2u);
  EXPECT_EQ(counters[77], 0);
  EXPECT_EQ(counters[123], 1);
  EXPECT_EQ(counters[124], 8);
}

TEST(ChooseCoverage, ReadsTheMapOnlyWhenTheWebhookAttachedIt) {
  auto made = makeCoverageMap(nullptr);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<SharedCoverageMap>>(made));
  auto& map = *std::get<std::unique_ptr<SharedCoverageMap>>(made);
  EXPECT_EQ(map.size(), kDefaultCoverageMapSize);
  map.clear();
  CoverageChoice none = chooseCoverage(map);  // nothing attached it
  EXPECT_EQ(none.map, nullptr);
  EXPECT_EQ(none.notice, kNoCoverageNotice);
  map.counts()[0] = 1;  // as the AFL++ runtime marks it when it attaches
  CoverageChoice on = chooseCoverage(map);
  EXPECT_EQ(on.map, &map);
  EXPECT_NE(on.notice.find("code coverage from the webhook's AFL++ instrumentation"),
            std::string::npos);
}

TEST(MakeCoverageMap, RejectsABadAflMapSize) {
  auto made = makeCoverageMap("lots");
  ASSERT_TRUE(std::holds_alternative<std::string>(made));
  EXPECT_NE(std::get<std::string>(made).find("AFL_MAP_SIZE=lots"), std::string::npos);
}

}  // namespace
}  // namespace convcheck
