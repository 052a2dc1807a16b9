// Joining the reports of the shards of one run (`convcheck run --shard I/N`, each results.json read
// back) into the report the unsharded run gives: each kind's (property, pair) counts added, its
// problems joined by identity and ranked again, the verdict and exit code of the whole run. Used
// by `convcheck merge`.
#pragma once

#include <string>
#include <vector>

#include "reports/results_reader.h"

namespace convcheck {

struct MergedReport {
  RunReport report;
  WrittenBundles bundles;  // each merged problem's bundle: the one of the shard its example is from
};

// Shards that do not make one run (another seed, another shard count, a shard twice or missing)
// are merged all the same, the run's fatalError says what is wrong and the exit code is 2.
MergedReport mergeShardReports(const std::vector<ResultsFile>& shards);

// `command` without its --shard option: the unsharded run's reproduction line.
std::string withoutShardOption(const std::string& command);

}  // namespace convcheck
