// What a webhook's behaviour on one fuzz case looks like, as features for libFuzzer's extra
// counters: failed properties and their causes, API-server stages, the shape of error messages,
// pruned or reverted paths, answer size and latency classes, each per version pair. Used by the
// fuzz engine; works for a webhook in any language (only its answers are observed).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/transport/exchange.h"
#include "properties/case_executor.h"

namespace convcheck {

// `message` with its values masked: digits runs as 0, quoted text as "…", so two messages differ
// only when the webhook's wording or structure does.
std::string maskedMessage(const std::string& message);

// A path with its list indices folded: "spec.ports[3].name" -> "spec.ports[*].name".
std::string foldedPath(const std::string& path);

// The features of one case, as stable 64-bit hashes of readable names (names() keeps them for
// tests and diagnostics).
class BehaviourFeatures {
 public:
  void clear();
  // One call of the case (the executor's onCall): its stage, message shape, silent changes, size
  // and latency class, keyed by the call's desired version.
  void addExchange(const Exchange& exchange);
  // The shape of one object sent (schema coverage of the input, not the webhook's behaviour):
  // each field path present and each list's length, metadata left out. It lets the corpus keep
  // inputs that reach further into the schema (longer lists, rarer fields) for the mutator to grow.
  void addInput(const std::string& version, const nlohmann::json& object);
  // The verdicts: each failing or not-evaluable property and each cause, keyed by the pair.
  void addResult(const CaseResult& result, const std::string& from, const std::string& to);

  // The features of several cases as one (a flight of cases, one libFuzzer input): each of
  // `other`'s features as often as the more of the two shows it, so that a feature's counter
  // holds what one case showed, not how many cases showed it.
  void join(const BehaviourFeatures& other);

  const std::vector<std::string>& names() const { return names_; }
  // Adds the hashes of this case's features to `seen`; returns how many were not there (a case
  // showing new behaviour, as libFuzzer would keep it).
  std::size_t addNewTo(std::unordered_set<std::uint64_t>& seen) const;
  // Sets counters[h % size] for every feature (saturating at 255).
  void writeTo(std::span<std::uint8_t> counters) const;

 private:
  void add(std::string name);
  std::vector<std::string> names_;
};

}  // namespace convcheck
