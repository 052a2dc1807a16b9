#include "engine/run/case_judge.h"

#include "kube/apiserver/group_version.h"

namespace convcheck {

using nlohmann::json;

CaseJudge::CaseJudge(const KindContext& kind, const ResolvedTarget& target,
                     const TargetFactory& makeTarget, std::function<void(const Exchange&)> onCall)
    : kind_(kind),
      timeout_(target.transport.timeout),
      converter_(kind.crd(), makeTarget(target), target.reviewVersion),
      onCall_(std::move(onCall)) {}

CaseResult CaseJudge::run(const std::vector<json>& batch, const std::string& from,
                          const std::string& to, std::uint64_t seed, Wants wants) {
  CaseSettings settings = kind_.caseSettings();
  settings.timeout = timeout_;
  if (wants) settings.wants = std::move(wants);
  settings.onCall = onCall_;
  CaseExecutor executor(kind_.crd(), converter_, std::move(settings));
  if (haltFrom_ && std::chrono::steady_clock::now() >= *haltFrom_) executor.halt();
  return executor.run(batch, from, to, seed);
}

ShrinkOutcome CaseJudge::shrink(const std::vector<json>& batch, const std::string& to,
                                std::uint64_t seed, const FailureTarget& target,
                                const CheckResult& original, int budget) {
  ShrinkCase shrinkCase;
  shrinkCase.to = to;
  shrinkCase.seed = seed;
  for (std::size_t i = 0; i < batch.size(); ++i)
    shrinkCase.items.push_back({objectVersion(batch[i]), rc::shrinkable::just(batch[i]), i});
  const CaseRunner runner = [&](const std::vector<json>& changed, const std::string& from) {
    return run(changed, from, to, seed,
               [&target](const std::string& property) { return caseNeeds(target, property); });
  };
  return shrinkFailure(shrinkCase, target, original, kind_.schemas(), runner, budget);
}

}  // namespace convcheck
