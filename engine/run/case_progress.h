// How far a kind's run is with its cases: the first generated one (which runs alone), each judged
// case, stored objects' and the corpus's included, told to RunConfig::events (the progress line),
// and the failing generated ones (a property the run reports failed) counted against
// --max-failures. Used by the runner, on the kind's thread.
#pragma once

#include <string>

#include "engine/run/run_config.h"
#include "properties/case_executor.h"

namespace convcheck {

class CaseProgress {
 public:
  // `kind` names the cases in the events (it outlives this).
  CaseProgress(const RunConfig& config, const std::string& kind) : config_(config), kind_(kind) {}

  // No generated case was judged yet: the next runs alone (it tells whether the webhook answers).
  bool beforeFirstCase() const { return cases_ == 0; }
  // A generated case was judged: counted (as failing when a property failed on it) and told, with
  // the kind's calls so far.
  void caseDone(const CaseResult& result, long long requests);
  // A case of stored objects (--cluster-objects) or of the corpus, run before the generated ones,
  // was judged: told, with the kind's calls so far, so that the progress line moves while they
  // run; neither the first generated case nor counted against --max-failures.
  void storedCaseDone(const CaseResult& result, long long requests);
  // --max-failures failing cases were judged: no case starts, and those judged after are dropped.
  bool limitReached() const;
  // The report's note when the limit stopped the run.
  std::string limitNote() const;
  int failingCases() const { return failing_; }

 private:
  const RunConfig& config_;
  const std::string& kind_;
  int cases_ = 0;
  int failing_ = 0;
};

}  // namespace convcheck
