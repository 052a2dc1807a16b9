// A property violation found in one test case, with everything a report or bundle needs.
// Produced by properties/checks; collected by the runner; consumed by reports/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/transport/exchange.h"
#include "kube/apiserver/shared_objects.h"
#include "properties/checks/cause.h"

namespace convcheck {

// How a failure was minimised before it was reported (SPEC §5): sizes before and after, and the
// webhook calls spent. Filled by shrink/; shown by every report.
struct ShrinkInfo {
  int originalObjects = 0, shrunkObjects = 0;
  int originalFields = 0, shrunkFields = 0;        // JSON values below the objects' roots
  std::size_t originalBytes = 0, shrunkBytes = 0;  // compact JSON of the batch
  int optionalFields = 0;        // fields of the shrunk objects that their schema does not require
  int calls = 0;                 // webhook calls spent shrinking
  int steps = 0;                 // smaller cases accepted
  bool reproduced = true;        // false: no smaller case failed (flaky, or already minimal)
  bool budgetExhausted = false;  // stopped at --shrink-budget: maybe not minimal
};

struct Finding {
  std::string property;              // SPEC §4 id
  std::string from;                  // source version of the case (first object for mixed batches)
  std::string to;                    // target version
  std::string summary;               // one sentence: what a user of the cluster would see
  std::string apiserverMessage;      // kube-apiserver's error for the exchange, empty if it accepts
  std::vector<std::string> details;  // e.g. silently reverted fields, per-index notes
  nlohmann::json expected;           // for the diff (null when not applicable)
  nlohmann::json got;
  SharedObjects batch;                 // the input objects of the case
  std::vector<ExchangeRef> exchanges;  // every request/response of the case, in order (shared)
  // The position in `batch` of the object that failed, when one object's own conversion did
  // (round-trip, determinism): the shrinker tries it first.
  std::optional<std::size_t> objectIndex;
  // Why it failed (properties/checks/cause_analysis), most severe first; set by the case executor.
  std::vector<Cause> causes;
  // Set by the runner's tally for the finding reported for one cause of a (pair, property):
  std::optional<Cause> cause;  // the cause this finding is the example of
  int cases = 0;               // failing cases of the pair and property that showed this cause

  // Set by shrink/ for the finding that is reported (and replayed from a bundle or the corpus):
  // The objects of the case's first request (`batch` may show others, e.g. the edited object),
  // shared with the exchange that sent them when the case was not shrunk: no copy per problem.
  SharedObjects caseObjects;
  std::uint64_t seed = 0;  // the case seed (request uids, edits, the via version of transitivity)
  std::string caseTo;      // desired version of the case's first request
  std::string part;        // "forward", "backward" (on a request back to a source) or "composite"
  std::string origin;      // "generated", "corpus FILE", "sample FILE", "minimize FILE"
  int foundAtRequest = 0;  // how many requests the run had made when the case failed (1-based)
  std::optional<ShrinkInfo> shrink;
};

}  // namespace convcheck
