// Schema-level mutation and cross-over of fuzz cases: a field's value drawn again from its schema
// node, an optional field dropped, a list grown or shrunk (up to its maxItems), a string edited
// character by character, list items made to share a key field, keys added and values nested
// inside preserve-unknown and free-form maps, an object added, removed or replaced, another
// target version. Mutants stay valid cases. Used by the fuzz engine's custom mutator.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "harness/fuzz/fuzz_case.h"

namespace convcheck {

enum class MutationKind {
  SetValue,          // a field's value drawn again from its schema node
  DropField,         // an optional field removed
  ResizeList,        // a list's element removed, repeated or added, or a new length it may have
  EditString,        // a string's characters inserted, removed, replaced or repeated
  RepeatKey,         // a list item takes the `type`/`name` (or a map-key field) of another
  EditFreeForm,      // keys added, or a value nested deeper, inside a preserve-unknown/free map
  AddObject,         // a generated object appended to the batch
  RemoveObject,      // an object removed from a batch of several
  RegenerateObject,  // an object replaced by a generated one of any source version
  ChangeTarget,      // another desired version
};

const char* mutationName(MutationKind kind);

struct Mutation {
  FuzzCase result;
  MutationKind kind = MutationKind::RegenerateObject;
};

// A valid mutant of `fuzzCase` (itself valid, as decodeFuzzCase makes them), a function of the
// case and `seed`. Each field's generator is compiled once and kept by the mutator.
class CaseMutator {
 public:
  explicit CaseMutator(const FuzzKind& kind) : kind_(kind) {}
  Mutation mutate(const FuzzCase& fuzzCase, std::uint64_t seed);
  // Objects of `a` up to a cut, then objects of `b` from a cut, converted to a's version.
  FuzzCase crossOver(const FuzzCase& a, const FuzzCase& b, std::uint64_t seed) const;

 private:
  struct Site;
  struct Pick;
  // A site of a random object of `c` that `wanted` accepts.
  std::optional<Pick> pick(const FuzzCase& c, std::mt19937_64& rng,
                           bool (*wanted)(const Site&)) const;
  // Object `i` of `c` becomes `changed` when that is valid for its version.
  bool keepIfValid(FuzzCase& c, std::size_t i, nlohmann::json changed) const;
  bool setValue(FuzzCase& c, std::uint64_t seed);
  bool dropField(FuzzCase& c, std::uint64_t seed);
  bool resizeList(FuzzCase& c, std::uint64_t seed);
  bool editString(FuzzCase& c, std::uint64_t seed);
  bool repeatKey(FuzzCase& c, std::uint64_t seed);
  bool editFreeForm(FuzzCase& c, std::uint64_t seed);
  bool addObject(FuzzCase& c, std::uint64_t seed) const;
  bool removeObject(FuzzCase& c, std::uint64_t seed) const;
  bool regenerateObject(FuzzCase& c, std::uint64_t seed) const;
  bool changeTarget(FuzzCase& c, std::uint64_t seed) const;
  // A value for the field at `fieldPath` of `version`, or null when the schema has none.
  std::optional<nlohmann::json> draw(const std::string& version, const std::string& fieldPath,
                                     std::uint64_t seed);

  const FuzzKind& kind_;
  std::map<std::string, rc::Gen<nlohmann::json>> gens_;  // "version|field path"
};

}  // namespace convcheck
