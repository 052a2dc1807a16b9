// One fuzzing process: runs each input libFuzzer hands over as a case (every property), reports
// the webhook's behaviour as extra counters, writes the first case of every problem not seen
// before for the reporting process, and prints its progress. Used by the fuzz engine.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>

#include "engine/fuzz/afl_coverage.h"
#include "engine/fuzz/behaviour_features.h"
#include "engine/fuzz/found_case.h"
#include "engine/fuzz/fuzz_config.h"
#include "engine/fuzz/fuzz_input.h"
#include "engine/fuzz/libfuzzer_driver.h"
#include "engine/run/kind_context.h"
#include "engine/run/problem_sightings.h"
#include "engine/run/target_resolution.h"
#include "harness/fuzz/case_mutator.h"
#include "harness/fuzz/fuzz_case.h"
#include "harness/transport/converter.h"

namespace convcheck {

// Exit code of a fuzzing process whose first case found the webhook unreachable.
inline constexpr int kFuzzUnreachableExit = 3;

// The kind's rules for a case executor of a fuzz run (KindContext::caseSettings, the target's
// timeout) with the caller's hooks: the construction run, replay and minimize share.
CaseSettings fuzzCaseSettings(const KindContext& kind, const FuzzConfig& config,
                              std::function<bool(const std::string&)> wants,
                              std::function<void(const Exchange&)> onCall);

class FuzzSession : public FuzzHooks {
 public:
  // `makeTarget` opens the session's connection (openTarget outside tests); `foundDir`: where
  // found cases, stats and an unreachable webhook's reason go; `job`: this process's number among
  // --jobs.
  FuzzSession(const KindContext& kind, const FuzzConfig& config, const TargetFactory& makeTarget,
              std::string foundDir, int job);

  int testOne(const std::uint8_t* data, std::size_t size) override;
  std::size_t mutate(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                     unsigned seed) override;
  std::size_t crossOver(const std::uint8_t* a, std::size_t sizeA, const std::uint8_t* b,
                        std::size_t sizeB, std::uint8_t* out, std::size_t maxOut,
                        unsigned seed) override;
  // Writes this process's stats (libFuzzer is done).
  void finished() override;

  // The features of the last case run.
  const BehaviourFeatures& features() const { return features_; }

 private:
  bool wants(const std::string& property) const;
  void stopIfUnreachable(const CaseResult& result);
  void record(const FuzzCase& c, std::uint64_t seed, const CaseResult& result);
  void progress(bool force);
  // Ends the process (as finished() would end it) once --max-total-time's share of fuzzing is
  // spent: three quarters of it once any process found a problem.
  void stopAtBudget();
  void writeStats();
  double seconds() const;

  const FuzzConfig& config_;
  FuzzKind fuzzKind_;
  CaseMutator mutator_;
  Converter converter_;
  BehaviourFeatures features_;
  CaseExecutor executor_;
  std::optional<CaseCoverage> coverage_;  // the webhook's edges, when it is instrumented
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
