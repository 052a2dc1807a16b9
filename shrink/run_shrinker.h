// The runner's shrinking hook: the first failure of every cause (properties/checks/cause.h) of a
// (property, from, to) is shrunk against the live webhook, keeping that cause, and returned as
// the cause's example (with sizes, calls, seed and origin): the first kCausesShrunk causes of a
// (property, from, to), of which at most kLesserCausesShrunk cosmetic or invented-data ones, so
// a webhook that loses many fields costs a bounded number of shrinks. Others stay unshrunk.
// One per kind run, owned by app/run/runner.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "generators/object_gen.h"
#include "generators/validity.h"
#include "harness/plan/test_plan.h"
#include "shrink/case_shrinker.h"

namespace convcheck {

// The shrunk example of one cause.
struct ShrunkExample {
  FailureTarget target;
  Finding finding;
};

// One cause to shrink, with everything the shrink needs (independent of the case's lifetime).
struct ShrinkJob {
  FailureTarget target;
  ShrinkCase shrinkCase;
  CheckResult original;
  SharedObjects sent;  // the case's first request (shared with its exchange)
  std::uint64_t seed = 0;
  std::string to, origin;
  int requestsSoFar = 0;
};

class RunShrinker {
 public:
  static constexpr int kCausesShrunk = 4;
  static constexpr int kLesserCausesShrunk = 2;

  // The maps are the runner's, read when a failure is shrunk (they may be filled later).
  RunShrinker(const std::map<std::string, ObjectGenerator>& generators,
              const std::map<std::string, ValidityChecker>& checkers, int budget);

  struct CaseInfo {
    std::string from;  // the versions the case was run with
    std::string to;
    std::uint64_t seed = 0;
    const PlannedCase* planned = nullptr;  // generated case: its shrink trees are regenerated
    std::string origin = "generated";      // or "corpus FILE", "sample FILE"
    int requestsSoFar = 0;                 // requests of the run when the case finished
  };

  // `result.forwardCall` must be the case's first request; the CaseRunner given to shrink
  // runs a batch for the job's target version and seed, judging what caseNeeds(target, ...) says.
  // Shrinking in two halves: `select` (call in case order: it decides which causes are new) and
  // `shrink` (const: jobs may run on other threads, each with its own CaseRunner).
  std::vector<ShrinkJob> select(const CaseResult& result, const CaseInfo& info);
  ShrunkExample shrink(const ShrinkJob& job, const CaseRunner& run) const;

  int budget() const { return budget_; }

 private:
  ShrinkCase caseFor(const SharedObjects& sent, const CaseInfo& info) const;
  ShrinkSchemas schemas() const;

  const std::map<std::string, ObjectGenerator>& generators_;
  const std::map<std::string, ValidityChecker>& checkers_;
  int budget_;
  // Whether a new cause of `target` is shrunk (and records it when it is).
  bool takeNew(const FailureTarget& target, Severity severity);

  std::set<std::tuple<std::string, std::string, std::string, std::string>> seen_;  // + cause key
  std::map<std::tuple<std::string, std::string, std::string>, int> lesser_;  // property, from, to
  std::map<std::tuple<std::string, std::string, std::string>, int> shrunkPerPair_;
};

// The shrink tree of `tree` made to produce `sent` exactly: identity fields (name, namespace,
// uid) the runner changed after generation are patched into every shrink; a leaf of `sent` when
// the tree does not match otherwise. Exposed for tests.
rc::Shrinkable<nlohmann::json> treeMatching(rc::Shrinkable<nlohmann::json> tree,
                                            const nlohmann::json& sent);

}  // namespace convcheck
