// The cases a --corpus directory adds to a run, in the order they run (before any generated
// case): stored regressions as they were shrunk, then each valid user sample to every other
// version, then generator variants of each sample. Used by the runner.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "generators/object_gen.h"
#include "generators/validity.h"
#include "harness/corpus/corpus_store.h"

namespace convcheck {

struct CorpusCase {
  std::string origin;  // "corpus regressions/<crd>/<file>", "sample samples/x.yaml, document 1"
  std::vector<nlohmann::json> objects;  // each with apiVersion (its source version) and kind
  std::string to;                       // desired version
  std::uint64_t seed = 0;
};

struct CorpusPlan {
  std::vector<CorpusCase> cases;
  std::vector<std::string> notes;  // skipped entries and why
};

// `versions` are the kind's tested versions, `generators`/`checkers` keyed by version.
// Deterministic for `seed`.
CorpusPlan planCorpusCases(const CorpusContents& contents, const Crd& crd,
                           const std::vector<std::string>& versions,
                           const std::map<std::string, ObjectGenerator>& generators,
                           const std::map<std::string, ValidityChecker>& checkers,
                           std::uint64_t seed, int variantsPerSample = 2);

}  // namespace convcheck
