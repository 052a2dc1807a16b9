#include "engine/run/shrunk_witness.h"

#include <algorithm>

#include "engine/run/problem_sightings.h"
#include "engine/run/zero_value_probe.h"
#include "kube/apiserver/group_version.h"
#include "properties/checks/property_registry.h"

namespace convcheck {

std::vector<std::string> witnessShrunk(const ShrunkExample& example, const ShrinkJob& job,
                                       const KindContext& kind, const JudgedCaseRun& run,
                                       const std::function<bool(const std::string&)>& wanted) {
  const Finding& f = example.finding;
  // A case the shrinker ran on (a smaller one failed, or none did: it was minimal already) and
  // small: a whole batch shows every defect its objects meet.
  constexpr std::size_t kWitnessObjects = 2;
  if (!f.shrink || f.shrink->calls == 0 || f.caseObjects.empty() ||
      f.caseObjects.size() > kWitnessObjects)
    return {};
  // What an edit of a fresh object meets is not what the shrunk objects meet: two defects whose
  // shrunk cases drew the same edit would show each other.
  auto drawsOwnContent = [](const std::string& property) {
    const Property* p = findProperty(property);
    return p != nullptr && p->drawsOwnContent;
  };
  const std::string from = objectVersion(f.caseObjects.front());
  std::vector<std::string> shows;
  const auto judged = [&](const std::string& property) {
    return wanted(property) && !drawsOwnContent(property);
  };
  for (auto& s : problemSightings(run(f.caseObjects.copy(), from, judged), from, job.to))
    shows.push_back(std::move(s.problem));
  // A lost field: is it lost only when its value is "", 0 or false?
  if (job.problem.rfind("field|", 0) != 0) return shows;
  ZeroValueProbe probe;
  probe.stillFails = [&](const std::vector<nlohmann::json>& batch) {
    CaseResult again = run(batch, from, [&job](const std::string& property) {
      return caseNeeds(job.target, property);
    });
    const CheckResult* failed = locateFailure(again, job.target);
    return failed != nullptr && failed->finding &&
           std::any_of(failed->finding->causes.begin(), failed->finding->causes.end(),
                       [&](const Cause& c) { return c.key == job.target.cause; });
  };
  probe.valid = [&kind](const nlohmann::json& object) {
    return kind.violations(object, objectVersion(object)).empty();
  };
  if (const auto zerosOnly = losesOnlyZeroValues(f, probe))
    shows.push_back(*zerosOnly ? kDropsZeroValues : kLosesAnyValue);
  return shows;
}

}  // namespace convcheck
