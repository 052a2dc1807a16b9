#include "engine/fuzz/afl_coverage.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace convcheck {

namespace {

// libFuzzer reads every byte of this section as a counter (found by its __start_/__stop_
// bounds), beside the behaviour features' array in libfuzzer_driver.cpp. 128 Ki counters (each
// one up to 8 of libFuzzer's features) keep a large webhook's edges apart and leave the feature
// space (2 Mi) room for the behaviour features.
__attribute__((section("__libfuzzer_extra_counters"), used))
std::uint8_t webhookEdgeCounters[std::size_t{1} << 17];

}  // namespace

std::uint8_t hitCountClass(std::uint8_t hits) {
  if (hits <= 2) return hits;
  if (hits == 3) return 4;
  if (hits < 8) return 8;
  if (hits < 16) return 16;
  if (hits < 32) return 32;
  if (hits < 128) return 64;
  return 128;
}

std::size_t writeEdgeCounters(std::span<const std::uint8_t> map, std::span<std::uint8_t> counters) {
  if (counters.empty()) return 0;
  std::size_t hit = 0;
  for (std::size_t edge = 1; edge < map.size();) {
    // Most of the map is zero: skip it a word at a time.
    if (edge % sizeof(std::uint64_t) == 0 && edge + sizeof(std::uint64_t) <= map.size()) {
      std::uint64_t word;
      std::memcpy(&word, map.data() + edge, sizeof word);
      if (word == 0) {
        edge += sizeof word;
        continue;
      }
    }
    if (map[edge] != 0) {
      std::uint8_t& counter = counters[edge % counters.size()];
      counter = std::max(counter, hitCountClass(map[edge]));
      ++hit;
    }
    ++edge;
  }
  return hit;
}

std::span<std::uint8_t> coverageCounters() {
  return {webhookEdgeCounters, sizeof webhookEdgeCounters};
}

bool webhookAttached(const SharedCoverageMap& map) {
  return map.attachedProcesses() > 1 || map.counts()[0] != 0;
}

std::variant<std::unique_ptr<SharedCoverageMap>, std::string> makeCoverageMap(
    const char* aflMapSize) {
  auto size = SharedCoverageMap::sizeFrom(aflMapSize);
  if (auto* error = std::get_if<std::string>(&size)) return *error;
  return SharedCoverageMap::create(std::get<std::size_t>(size));
}

CoverageChoice chooseCoverage(SharedCoverageMap& map) {
  if (!webhookAttached(map)) return {nullptr, kNoCoverageNotice};
  return {&map, fmt::format("code coverage from the webhook's AFL++ instrumentation (a map of {} "
                            "edges)",
                            map.size())};
}

std::size_t CaseCoverage::afterCase() {
  const std::span<std::uint8_t> counters = coverageCounters();
  const std::size_t hit = writeEdgeCounters(map_.counts(), counters);
  seen_.resize(counters.size());
  for (std::size_t i = 0; i < counters.size(); ++i) {
    if (counters[i] == 0 || seen_[i]) continue;
    seen_[i] = true;
    ++edgesSeen_;
  }
  return hit;
}

}  // namespace convcheck
