// Every number convcheck draws from a seed it already used elsewhere, named once: each use mixes
// in a salt of its own, so two uses of one seed draw unrelated numbers and changing one never
// moves another. Used by the plan, the corpus, the case executor, the properties that draw and
// the runner.
#pragma once

#include <cstddef>
#include <cstdint>

namespace convcheck {

// The salts, one per use (distinct: a test keeps them so). Changing one changes what a seed
// reproduces: the requests of every existing seed, bundle and corpus entry that use it.
enum class SeedSalt : std::uint64_t {
  CaseRequestUids = 0x5eed,      // the case executor: the request uids of a case's calls
  EditRoundTripEdit = 0xed17,    // edit-round-trip: the schema-valid edit of the converted object
  BatchPermutation = 0xba7c,     // batch-independence: the order of the permuted batch
  SizeBisectionUids = 0xb15ec7,  // the runner: the request uids of a size bisection's calls
  BreakerProbeUids = 0x9f0be5,   // the call ledger: the request uids of the breaker's probes
  SampleUid = 0x5a3b1e5,         // a corpus sample without metadata.uid: the one it is given
  DuplicateUidStep = 7919,       // a planned batch: a slot's fresh uid when its own is taken
  UpgradeObjectStep = 0x9e3779b97f4a7c15,  // upgrade: the seed of its generated object N
  UpgradeTextHash = 0x0b9ade,              // upgrade: a seed hashed with an object's text
};

// `seed` with `salt` mixed in: what the use's random engine is seeded with.
constexpr std::uint64_t salted(std::uint64_t seed, SeedSalt salt) {
  return seed ^ static_cast<std::uint64_t>(salt);
}

// The seed of object `slot` of a planned case whose uid is already taken in its batch.
constexpr std::uint64_t duplicateUidSeed(std::uint64_t seed, std::size_t slot) {
  return seed + static_cast<std::uint64_t>(SeedSalt::DuplicateUidStep) * (slot + 1);
}

// Every salt, for the test that keeps them distinct.
inline constexpr SeedSalt kSeedSalts[] = {
    SeedSalt::CaseRequestUids,   SeedSalt::EditRoundTripEdit, SeedSalt::BatchPermutation,
    SeedSalt::SizeBisectionUids, SeedSalt::BreakerProbeUids,  SeedSalt::SampleUid,
    SeedSalt::DuplicateUidStep,  SeedSalt::UpgradeObjectStep, SeedSalt::UpgradeTextHash};

}  // namespace convcheck
