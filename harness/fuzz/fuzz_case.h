// A fuzz input as a test case: any byte string decodes to a batch of schema-valid objects of one
// kind and the version they are converted to. Used by the fuzz engine (engine/fuzz) and its
// mutator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "generators/object_gen.h"
#include "generators/validity.h"

namespace convcheck {

// What the decoder and the mutator know of a kind: its generators and checkers per version and
// which versions objects may be in and be converted to. The maps must outlive the value.
struct FuzzKind {
  const std::map<std::string, ObjectGenerator>* generators = nullptr;
  const std::map<std::string, ValidityChecker>* checkers = nullptr;
  std::vector<std::string> targets;  // versions a batch may be converted to
  std::vector<std::string> sources;  // versions an object may be in
  std::size_t maxBatch = 8;          // objects in one batch at most

  // Whether `object` is a valid object of `version` (apiVersion, kind and schema).
  bool valid(const nlohmann::json& object, const std::string& version) const;
  // The source versions an object converted to `to` may be in.
  std::vector<std::string> sourcesFor(const std::string& to) const;
  // The version of `object` by its apiVersion; "" when it names none of `sources`.
  std::string versionOf(const nlohmann::json& object) const;
};

struct FuzzCase {
  std::string to;                       // the desired version
  std::vector<nlohmann::json> objects;  // 1..maxBatch valid objects, none in `to`
  std::vector<std::string> versions;    // the source version of each object
  bool operator==(const FuzzCase& other) const {
    return to == other.to && objects == other.objects;
  }
};

// The case `bytes` stand for, a function of the bytes alone. The canonical form (encodeFuzzCase)
// decodes to itself; an entry of it that is not a valid object of a source version (a changed
// byte broke it) is replaced by an object generated from that entry's bytes, and bytes that are
// not such a JSON document at all by a case generated from their hash. Throws only when the
// kind's generators cannot make an object (an unsatisfiable schema).
FuzzCase decodeFuzzCase(const FuzzKind& kind, const std::uint8_t* data, std::size_t size);

// The canonical bytes of `fuzzCase`: {"to": VERSION, "objects": [...]} as compact JSON.
std::string encodeFuzzCase(const FuzzCase& fuzzCase);

// A case generated from `seed` as the run's plan shapes them: mostly single objects, sometimes a
// batch of mixed source versions, sometimes a minimal object.
FuzzCase generatedFuzzCase(const FuzzKind& kind, std::uint64_t seed);

// A valid object of `version` generated from `seed` (`minimal`: only required fields).
nlohmann::json generatedFuzzObject(const FuzzKind& kind, const std::string& version,
                                   std::uint64_t seed, bool minimal = false);

// The batch with unique names and uids (as a LIST holds them): repeated ones are renamed by slot.
void makeIdentitiesUnique(FuzzCase& fuzzCase, std::uint64_t seed);

}  // namespace convcheck
