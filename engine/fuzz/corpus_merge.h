// `convcheck fuzz --merge`: minimises a fuzz corpus directory as libFuzzer's -merge=1 does, with
// convcheck's behaviour features as the coverage: inputs smallest first, each kept only when it
// shows a feature no input kept before it showed. Used by the fuzz engine.
#pragma once

#include <cstddef>
#include <string>

#include "engine/fuzz/fuzz_session.h"

namespace convcheck {

struct MergeOutcome {
  std::size_t inputs = 0;    // files in the directory before
  std::size_t kept = 0;      // files left
  std::size_t features = 0;  // features the kept inputs show together
  std::string error;         // the directory could not be read or changed
};

// Runs every file of `dir` through `session` (problems found on the way are recorded as when
// fuzzing) and removes the files that add no feature.
MergeOutcome mergeCorpus(FuzzSession& session, const std::string& dir);

}  // namespace convcheck
