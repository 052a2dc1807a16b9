// `convcheck fuzz`: a time-budgeted, resumable search for inputs on which a webhook breaks a
// property, with libFuzzer as the engine (its corpus, scheduling and mutation driver) and
// convcheck's schema-level mutator, case executor and behaviour features. Called by app/cli.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "app/run/kind_context.h"
#include "app/run/target_resolution.h"

namespace convcheck {

struct FuzzConfig {
  ResolvedTarget target;
  KindSettings settings;
  std::string corpusDir;     // libFuzzer inputs in DIR/fuzz/, shrunk failures in DIR/regressions/
  std::string reportDir;     // bundles/ of the problems found
  int maxTotalTime = 60;     // seconds; 0: no limit
  std::int64_t runs = -1;    // fuzz cases at most; -1: no limit
  std::uint64_t seed = 0;    // libFuzzer's seed (0: libFuzzer picks one)
  std::size_t maxBatch = 8;  // objects in one case at most
  int shrinkBudget = 200;    // webhook calls spent shrinking each problem
  bool merge = false;        // minimise the corpus instead of fuzzing
  std::string convcheckVersion;
  std::string commandLine;  // recorded in bundles
};

// Fuzzes `crd`'s webhook (or merges the corpus). Exit codes as `run`: 0 the budget ran out with
// no problem, 1 problems found (each shrunk, a bundle written, stored as a regression), 2 bad
// input, 3 the webhook could not be reached.
int runFuzz(const Crd& crd, const FuzzConfig& config, std::ostream& out, std::ostream& err);

}  // namespace convcheck
