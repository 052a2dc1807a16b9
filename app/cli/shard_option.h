// `run --shard I/N`, or a Kubernetes Indexed Job's JOB_COMPLETION_INDEX and JOB_COMPLETIONS when
// --shard is not given: which shard of the run this process runs. Used by run_command.
#pragma once

#include <string>

namespace convcheck {

struct ShardChoice {
  int index = 0;  // 0-based
  int count = 1;
  bool fromEnvironment = false;  // JOB_COMPLETION_INDEX chose it (the reproduction line names it)
};

// `flag` is --shard's value ("" when not given); `completionIndex` and `completions` are the
// environment's (nullptr when unset). Returns an error naming the option or variable, or "".
std::string readShard(const std::string& flag, const char* completionIndex, const char* completions,
                      ShardChoice& out);

}  // namespace convcheck
