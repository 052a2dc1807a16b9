// Inputs the webhook chokes on: counts each generated case's forward rejection per source version
// and per pair, so the runner replaces repeated rejections with new cases and says once, per
// version, that most objects were rejected the same way. Used by the runner only.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness/transport/exchange.h"

namespace convcheck {

class ChokeTracker {
 public:
  // A rejection seen this many times on a pair no longer counts towards --tests.
  static constexpr int kRepeats = 3;

  // Forgets the per-pair counts (a new version pair starts).
  void startPair() { pairRejections_.clear(); }
  // Counts the forward call of a generated case from `version` (null: no call was made); true
  // when the webhook rejected it the same way kRepeats times before on this pair.
  bool count(const std::string& version, const Exchange* forward);
  // One note per version most of whose generated objects (of 8 or more) were rejected the same way.
  std::vector<std::string> notes() const;

 private:
  struct PerVersion {
    int cases = 0;                                               // generated cases from it
    std::map<std::string, std::pair<int, std::string>> byError;  // kind -> (cases, 1st message)
  };
  std::map<std::string, PerVersion> versions_;  // over all pairs
  std::map<std::string, int> pairRejections_;   // per rejection kind, this pair
};

}  // namespace convcheck
