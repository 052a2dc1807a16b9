#include "engine/run/choke_tracker.h"
#include "kube/go/utf8.h"

#include <fmt/format.h>

namespace convcheck {

bool ChokeTracker::count(const std::string& version, const Exchange* forward) {
  PerVersion& perVersion = versions_[version];
  ++perVersion.cases;
  if (!forward || forward->verdict.accepted()) return false;
  std::string key = modelStageName(forward->verdict.stage);
  if (forward->verdict.stage == ModelStage::HttpStatus)
    key += fmt::format(" {}", forward->http.status);
  if (forward->verdict.stage == ModelStage::Transport)
    key += std::string(" ") + transportErrorKindName(forward->http.transportErrorKind);
  auto& seen = perVersion.byError[key];
  if (seen.first++ == 0) seen.second = forward->verdict.message;
  return ++pairRejections_[key] > kRepeats;
}

std::vector<std::string> ChokeTracker::notes() const {
  std::vector<std::string> out;
  for (const auto& [version, count] : versions_) {
    for (const auto& [key, seen] : count.byError) {
      if (count.cases < 8 || 2 * seen.first < count.cases) continue;
      std::string message = shortenUtf8(seen.second, 240);
      out.push_back(fmt::format(
          "the webhook rejects most generated {} objects the same way ({} of {} cases, {}): "
          "{}; the other properties were judged on the objects it converts, with extra cases "
          "in place of the rejected ones",
          version, seen.first, count.cases, key, message));
    }
  }
  return out;
}

}  // namespace convcheck
