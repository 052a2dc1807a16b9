// `convcheck fuzz --merge`: minimises a fuzz corpus directory as libFuzzer's -merge=1 does, with
// convcheck's behaviour features as the coverage: inputs smallest first, each kept only when it
// shows a feature no input kept before it showed; the inputs and regressions of other shards'
// corpus directories (--merge-from) join it. Used by the fuzz engine.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/fuzz/fuzz_session.h"

namespace convcheck {

struct MergeOutcome {
  std::size_t inputs = 0;    // files in the directory before
  std::size_t kept = 0;      // files left
  std::size_t features = 0;  // features the kept inputs show together
  std::string error;         // the directory could not be read or changed
};

// Runs every file of `dir`, and of the directories `from` that `dir` has no file of that name of,
// through `session` (problems found on the way are recorded as when fuzzing): the files that add
// a feature are kept (those of `from` copied into `dir`), `dir`'s other files are removed, and
// `from` is left as it was. A directory of `from` that does not exist holds no input.
MergeOutcome mergeCorpus(FuzzSession& session, const std::string& dir,
                         const std::vector<std::string>& from = {});

// Copies the regressions of each corpus directory of `shards` (DIR/regressions/<crd>/…) that
// `corpusDir` lacks into it; returns an error, or "".
std::string joinRegressions(const std::string& corpusDir, const std::vector<std::string>& shards);

}  // namespace convcheck
