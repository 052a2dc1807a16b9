// One kind's cases judged one at a time over a connection of their own: a case run through the
// case executor (the kind's rules, the target's timeout), judging the properties asked for, and a
// failure of it shrunk. Used by replay, minimize, the fuzz report and the in-process harness.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/run/kind_context.h"
#include "engine/run/target_resolution.h"
#include "harness/transport/converter.h"
#include "properties/case_executor.h"
#include "shrink/case_shrinker.h"
#include "shrink/failure_target.h"

namespace convcheck {

class CaseJudge {
 public:
  // Which properties a case judges (empty: every one).
  using Wants = std::function<bool(const std::string& property)>;

  // Reviews go to a target `makeTarget` opens for `target`; `onCall` (may be empty) hears every
  // exchange. `kind` must outlive the judge.
  CaseJudge(const KindContext& kind, const ResolvedTarget& target, const TargetFactory& makeTarget,
            std::function<void(const Exchange&)> onCall = {});

  // `batch` (objects in the versions they name) converted to `to`, first from `from`, with
  // request uids and edits from `seed`.
  CaseResult run(const std::vector<nlohmann::json>& batch, const std::string& from,
                 const std::string& to, std::uint64_t seed, Wants wants = {});
  // From `deadline` on, run() makes no call (its case ends halted): a time budget spent.
  void haltFrom(std::chrono::steady_clock::time_point deadline) { haltFrom_ = deadline; }

  // The smallest batch that still fails `target` the same way, `original` being its failing
  // result on `batch` (converted to `to` with `seed`), within `budget` calls.
  ShrinkOutcome shrink(const std::vector<nlohmann::json>& batch, const std::string& to,
                       std::uint64_t seed, const FailureTarget& target, const CheckResult& original,
                       int budget);

 private:
  const KindContext& kind_;
  std::chrono::milliseconds timeout_;
  Converter converter_;
  std::function<void(const Exchange&)> onCall_;
  std::optional<std::chrono::steady_clock::time_point> haltFrom_;
};

}  // namespace convcheck
