// Code coverage of an AFL++-instrumented webhook as libFuzzer feedback: the edges one fuzz case
// made the webhook run, read from its shared-memory map, in AFL++'s hit-count classes, written
// into a region of libFuzzer's extra counters beside the behaviour features. Used by the fuzz
// engine and by `convcheck fuzz -- COMMAND`, which starts the webhook with the map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "harness/fuzz/coverage_map.h"

namespace convcheck {

// What `convcheck fuzz` says when the webhook it started did not attach the map.
inline constexpr const char* kNoCoverageNotice =
    "no coverage: the webhook was not built with AFL++ instrumentation (build it with "
    "afl-clang-fast/afl-clang-fast++, afl-clang-lto or cargo afl); fuzzing goes on with the "
    "webhook's behaviour as the only feedback";

// The map for a webhook convcheck starts: `aflMapSize` edges (the AFL_MAP_SIZE variable; null:
// the default). The error says why it could not be made.
std::variant<std::unique_ptr<SharedCoverageMap>, std::string> makeCoverageMap(
    const char* aflMapSize);

// What fuzzing does with the map a started webhook was given, once it answered, and the stderr
// line that says so: the edges are read when the webhook attached the map (only one fuzzing
// process fuzzes a started webhook); else behaviour only.
struct CoverageChoice {
  SharedCoverageMap* map = nullptr;  // null: behaviour only
  std::string notice;
};
CoverageChoice chooseCoverage(SharedCoverageMap& map);

// AFL++'s hit-count class of an edge run `hits` times: 0, 1, 2, 4 (3), 8 (4-7), 16 (8-15),
// 32 (16-31), 64 (32-127), 128 (128-255).
std::uint8_t hitCountClass(std::uint8_t hits);

// Writes the class of every edge of `map` that was hit into `counters` (edge i at i modulo the
// region's size; entry 0 of the map, which the AFL++ runtime sets when it attaches, left out).
// Returns the number of edges hit.
std::size_t writeEdgeCounters(std::span<const std::uint8_t> map, std::span<std::uint8_t> counters);

// The part of libFuzzer's extra counters that holds the webhook's edges (libfuzzer_driver.h's
// extraCounters() holds the behaviour features).
std::span<std::uint8_t> coverageCounters();

// Whether the webhook attached `map`: a process besides this one is attached, or the AFL++
// runtime marked entry 0 when it attached. Call once the webhook has answered.
bool webhookAttached(const SharedCoverageMap& map);

// One fuzz case's coverage: the map cleared before the case runs, its edges fed to libFuzzer
// after. Calls to the webhook must not overlap inputs (a fuzzing process runs one input's flight
// at a time, and no other process fuzzes its webhook).
class CaseCoverage {
 public:
  explicit CaseCoverage(SharedCoverageMap& map) : map_(map) {}
  void beforeCase() { map_.clear(); }
  // Writes the case's edges into coverageCounters(); returns how many were hit.
  std::size_t afterCase();
  // Distinct counters of coverageCounters() any case so far set: the webhook edges fuzzing has
  // reached (edges that share a counter count once).
  std::size_t edgesSeen() const { return edgesSeen_; }

 private:
  SharedCoverageMap& map_;
  std::vector<bool> seen_;  // per counter of coverageCounters(): set by an earlier case
  std::size_t edgesSeen_ = 0;
};

}  // namespace convcheck
