// One fuzzing process: runs each input libFuzzer hands over as a flight of cases in flight at once
// (every property), reports the webhook's behaviour on them as the input's extra counters, writes
// the first case of every problem not seen before for the reporting process, and prints its
// progress. Used by the fuzz engine.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_set>

#include "engine/fuzz/afl_coverage.h"
#include "engine/fuzz/behaviour_features.h"
#include "engine/fuzz/case_flight.h"
#include "engine/fuzz/found_case.h"
#include "engine/fuzz/fuzz_config.h"
#include "engine/fuzz/fuzz_input.h"
#include "engine/fuzz/libfuzzer_driver.h"
#include "engine/fuzz/process_webhook.h"
#include "engine/run/kind_context.h"
#include "engine/run/problem_sightings.h"
#include "engine/run/target_resolution.h"
#include "harness/fuzz/case_mutator.h"
#include "harness/fuzz/fuzz_case.h"

namespace convcheck {

// Exit code of a fuzzing process whose first case found the webhook unreachable.
inline constexpr int kFuzzUnreachableExit = 3;

class FuzzSession : public FuzzHooks {
 public:
  // `makeTarget` opens the session's connections, one per case in flight (openTarget outside
  // tests); `foundDir`: where found cases, stats and an unreachable webhook's reason go; `job`:
  // this process's number among --jobs.
  FuzzSession(const KindContext& kind, const FuzzConfig& config, const TargetFactory& makeTarget,
              std::string foundDir, int job);

  int testOne(const std::uint8_t* data, std::size_t size) override;
  std::size_t mutate(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                     unsigned seed) override;
  std::size_t crossOver(const std::uint8_t* a, std::size_t sizeA, const std::uint8_t* b,
                        std::size_t sizeB, std::uint8_t* out, std::size_t maxOut,
                        unsigned seed) override;
  // Writes this process's stats and stops its own webhook (libFuzzer is done).
  void finished() override;
  // The webhook this process started for itself (fuzz --jobs N -- COMMAND), stopped when fuzzing
  // is done, however it ends.
  void own(std::unique_ptr<ProcessWebhook> webhook) { webhook_ = std::move(webhook); }

  // The features of the last input run: those of its cases, joined.
  const BehaviourFeatures& features() const { return features_; }

 private:
  bool wants(const std::string& property) const;
  void stopIfUnreachable(const CaseResult& result);
  // The flight of `flightSize` cases `data` stands for: the last one decoded or written when it is
  // those bytes (libFuzzer runs each mutant right after making it, then mutates it again), else
  // decoded.
  const std::vector<FuzzCase>& flightOf(const std::uint8_t* data, std::size_t size,
                                        std::size_t flightSize);
  // Writes a mutant or cross-over into libFuzzer's buffer (flightOf's next answer when whole).
  std::size_t put(std::vector<FuzzCase> flight, std::uint8_t* out, std::size_t maxSize);
  // Runs the cases of one input; `first`: the cases run before them.
  void fly(std::span<const FuzzCase> cases, std::int64_t first);
  void record(const FuzzCase& c, std::uint64_t seed, const CaseResult& result, std::int64_t exec);
  void progress(bool force);
  // Ends the process (as finished() would end it) once --max-total-time's share of fuzzing is
  // spent: three quarters of it once any process found a problem.
  void stopAtBudget();
  void writeStats();
  double seconds() const;

  const FuzzConfig& config_;
  FuzzKind fuzzKind_;
  CaseMutator mutator_;
  struct DecodedFlight {
    std::string bytes;
    std::vector<FuzzCase> cases;
  } last_;  // flightOf's
  BehaviourFeatures features_;
  CaseFlight flight_;
  std::optional<CaseCoverage> coverage_;     // the webhook's edges, when it is instrumented
  std::unique_ptr<ProcessWebhook> webhook_;  // own()'s
  std::string foundDir_;
  int job_;
  std::set<std::string> problems_;   // seen by this process
  std::set<std::string> sightings_;  // (problem, site) pairs seen by this process
  std::unordered_set<std::uint64_t> seenFeatures_;
  FuzzStats stats_;
  std::chrono::steady_clock::time_point start_, lastProgress_, lastStats_;
  const std::optional<RunBudget> budget_;  // --max-total-time (not while merging)
  bool anyFound_ = false;  // a process found a problem (foundDir, read at most once a second)
  std::chrono::steady_clock::time_point lastFoundCheck_;
};

}  // namespace convcheck
