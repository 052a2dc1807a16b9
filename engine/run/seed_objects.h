// The objects a kind's run tests before its generated cases: stored regressions and user samples
// (--corpus) and objects stored in the cluster (--cluster-objects). Used by the runner.
#pragma once

#include "engine/run/run_config.h"
#include "harness/corpus/corpus_store.h"
#include "kube/crd/crd.h"

namespace convcheck {

// The corpus's contents for `crd` (none without --corpus), and up to --cluster-objects stored
// objects of each served version in `versions`, read from the cluster as samples named
// "cluster VERSION NAMESPACE/NAME". How many were read, or why a list could not be, is a note.
CorpusContents loadSeedObjects(const RunConfig& config, const Crd& crd,
                               const std::vector<std::string>& versions);

}  // namespace convcheck
