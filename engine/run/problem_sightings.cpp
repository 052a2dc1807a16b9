#include "engine/run/problem_sightings.h"

#include <algorithm>

#include <fmt/format.h>

namespace convcheck {

std::vector<ProblemSighting> problemSightings(const CaseResult& result, const std::string& from,
                                              const std::string& to) {
  std::vector<ProblemSighting> out;
  auto addAll = [&](const std::vector<CheckResult>& results, const std::string& pairFrom,
                    const std::string& pairTo) {
    for (const auto& r : results) {
      if (r.outcome != Outcome::Fail || !r.finding) continue;
      for (const auto& cause : r.finding->causes) {
        ProblemSighting s{cause.problem.empty() ? cause.key : cause.problem,
                          fmt::format("{} {}->{}", r.property, pairFrom, pairTo),
                          r.property,
                          pairFrom,
                          pairTo,
                          cause.title};
        if (std::none_of(out.begin(), out.end(), [&s](const ProblemSighting& o) {
              return o.problem == s.problem && o.site == s.site;
            }))
          out.push_back(std::move(s));
      }
    }
  };
  addAll(result.forward, from, to);
  addAll(result.composite, from, to);
  for (std::size_t i = 0; i < result.backward.size() && i < result.backwardTo.size(); ++i)
    addAll({result.backward[i]}, result.backwardFrom, result.backwardTo[i]);
  return out;
}

}  // namespace convcheck
