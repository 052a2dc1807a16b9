// Minimises one failing test case against the live webhook (SPEC §5): first the batch (fewest
// objects, then fewest source versions), then each object through its shrink tree, then by
// schema-directed edits; every candidate is schema-valid and is re-run for the same property on
// the same version pair, within a budget of webhook calls.
// Used by the runner (every first failure), `convcheck minimize`, and tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "generators/schema_model.h"
#include "generators/validity.h"
#include "properties/case_executor.h"
#include "shrink/failure_target.h"

namespace convcheck {

// One object of the batch: its source version, its shrink tree (value() = the object as sent;
// a leaf for objects without a generator), and its position in the original batch.
struct ShrinkItem {
  std::string version;
  rc::Shrinkable<nlohmann::json> tree;
  std::size_t slot = 0;
};

struct ShrinkCase {
  std::vector<ShrinkItem> items;
  std::string to;          // desired version of the case's first request
  std::uint64_t seed = 0;  // the case seed (kept: request uids and edits derive from it)
  // Optional: the object of `slot` generated in another version, for fewer source versions.
  std::function<std::optional<rc::Shrinkable<nlohmann::json>>(std::size_t slot,
                                                              const std::string& version)>
      regenerate;
};

// What keeps candidates schema-valid, per version of the kind (absent version: not checked).
struct ShrinkSchemas {
  std::map<std::string, const ValidityChecker*> checkers;
  std::map<std::string, SchemaNodePtr> roots;
};

// Runs `batch` as the case (same target version and seed) against the webhook, judging the
// target property; `from` is the version of the batch's first object.
using CaseRunner =
    std::function<CaseResult(const std::vector<nlohmann::json>& batch, const std::string& from)>;

struct ShrinkOutcome {
  std::vector<nlohmann::json> batch;  // the smallest batch that failed the same way
  CheckResult result;                 // its failing result; `original` when nothing smaller failed
  ShrinkInfo info;
};

// `original` is the failing result of the unchanged case. Never throws for webhook behaviour.
ShrinkOutcome shrinkFailure(const ShrinkCase& shrinkCase, const FailureTarget& target,
                            const CheckResult& original, const ShrinkSchemas& schemas,
                            const CaseRunner& run, int budget);

}  // namespace convcheck
