// The runner's shrinking hook: the first failure of every problem (Cause::problem: one defect,
// whatever properties and version pairs it breaks) is shrunk against the live webhook, keeping
// its cause (and so, for a rejection, its masked message), and returned as the problem's example
// (with sizes, calls, seed and origin). Shrinks share a budget of the run's calls (at most as many
// as testing made, so at most half of the run's), most severe problems first, each at most an even
// share of what is left.
// One per kind run, owned by engine/run/runner.
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
#include "shrink/shrink_budget.h"

namespace convcheck {

// The shrunk example of one problem.
struct ShrunkExample {
  FailureTarget target;
  std::string problem;
  Finding finding;
  // The problems the shrunk case shows when every property judges it (empty: not judged), which
  // decide what is one defect (engine/run/tally.h: setProblemWitness).
  std::vector<std::string> witnessed = {};
};

// One problem to shrink, with everything the shrink needs (independent of the case's lifetime).
struct ShrinkJob {
  std::string problem;  // Cause::problem of the chased cause
  Severity severity = Severity::DataLoss;
  FailureTarget target;
  // The generated case's plan (its shrink trees are drawn again from it when the shrink starts,
  // not when the job is queued: a queued job holds no trees); none for a corpus or sample case.
  std::optional<PlannedCase> planned;
  CheckResult original;
  SharedObjects sent;  // the case's first request (shared with its exchange)
  std::uint64_t seed = 0;
  std::string to, origin;
  int requestsSoFar = 0;
};

class RunShrinker {
 public:
  // The maps are the runner's, read when a failure is shrunk (they may be filled later).
  // `budget` is each shrink's own (--shrink-budget).
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
  // Shrinking in two halves: `select` (call in case order: it decides which problems are new) and
  // `shrink` (const: jobs may run on other threads, each with its own CaseRunner).
  std::vector<ShrinkJob> select(const CaseResult& result, const CaseInfo& info);
  ShrunkExample shrink(const ShrinkJob& job, const CaseRunner& run) const;
  // The example of a job whose shrink never ran (the time budget ended first): its failure as
  // found, with the case's objects, so it still replays and is stored as a regression.
  ShrunkExample unshrunk(const ShrinkJob& job) const;
  // The order to shrink in when the shared budget may not cover every job: most severe first,
  // then as selected.
  static void rank(std::vector<ShrinkJob>& jobs);

  int budget() const { return budget_; }
  // The calls `shrinks` shrinks together may spend (the runner: as many as testing made), each
  // at most an even share of what the ones before it left.
  void shareBudget(int calls, int shrinks = 1) { shared_.setLimit(calls, shrinks); }
  // Whether a shrink got fewer calls than its own budget because the shared one ran out.
  bool sharedBudgetHit() const { return shared_.hit(); }

 private:
  ShrinkCase caseFor(const SharedObjects& sent, const CaseInfo& info) const;
  // The job's example from what its shrink came to (`shrunk`: whether it found a smaller case).
  ShrunkExample example(const ShrinkJob& job, ShrinkOutcome outcome, bool shrunk) const;
  ShrinkSchemas schemas() const;

  const std::map<std::string, ObjectGenerator>& generators_;
  const std::map<std::string, ValidityChecker>& checkers_;
  int budget_;
  mutable SharedShrinkBudget shared_;
  std::set<std::string> seen_;  // problems with a job
};

// The shrink tree of `tree` made to produce `sent` exactly: identity fields (name, namespace,
// uid) the runner changed after generation are patched into every shrink; a leaf of `sent` when
// the tree does not match otherwise. Exposed for tests.
rc::Shrinkable<nlohmann::json> treeMatching(rc::Shrinkable<nlohmann::json> tree,
                                            const nlohmann::json& sent);

}  // namespace convcheck
