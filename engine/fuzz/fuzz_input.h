// libFuzzer's bytes as one kind's cases: what the decoder and the mutator know of the kind, an
// input's seed, a mutant or a cross-over written back into libFuzzer's buffer, and an input as a
// flight of cases (one per line). Used by the fuzzing processes of `convcheck fuzz` and by the
// in-process harness (which links no libFuzzer runtime of convcheck's own: this library holds
// none).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/run/kind_context.h"
#include "harness/fuzz/case_mutator.h"
#include "harness/fuzz/fuzz_case.h"

namespace convcheck {

// What the decoder and mutator know of `kind` (its maps must outlive the value).
FuzzKind fuzzKindOf(const KindContext& kind, std::size_t maxBatch);

// FNV-1a of the bytes: a case's seed (its request uids) and its file name.
std::uint64_t fuzzInputHash(const std::uint8_t* data, std::size_t size);

// libFuzzer's custom mutator: a valid mutant of the case `data` stands for, at most `maxSize`
// bytes, written over `data`; returns its size.
std::size_t mutateInput(CaseMutator& mutator, const FuzzKind& kind, std::uint8_t* data,
                        std::size_t size, std::size_t maxSize, unsigned seed);

// libFuzzer's custom cross-over: a case of both inputs' objects, written to `out`.
std::size_t crossOverInputs(const CaseMutator& mutator, const FuzzKind& kind, const std::uint8_t* a,
                            std::size_t sizeA, const std::uint8_t* b, std::size_t sizeB,
                            std::uint8_t* out, std::size_t maxOut, unsigned seed);

// An input of `convcheck fuzz` is a flight of cases, the cases its process runs side by side: the
// canonical encodings of its cases, one per line. Decoded, it is `flightSize` cases: its first
// lines, each as decodeFuzzCase reads it (bytes that hold one JSON document, pretty-printed or
// not, are one line), then mutants of those, seeded by the input's hash, up to `flightSize`. A
// function of the bytes and `flightSize`. With a flight of one, the canonical bytes of a case are
// the canonical bytes of its flight.
std::vector<FuzzCase> decodeFuzzFlight(CaseMutator& mutator, const FuzzKind& kind,
                                       const std::uint8_t* data, std::size_t size,
                                       std::size_t flightSize);
std::string encodeFuzzFlight(const std::vector<FuzzCase>& cases);

// The custom mutator on flights: every case of `flight` mutated, case i with a seed of its own
// drawn from `seed`.
std::vector<FuzzCase> mutateFlight(CaseMutator& mutator, std::vector<FuzzCase> flight,
                                   unsigned seed);

// The custom cross-over on flights: case i of `a` crossed with a case of `b` (not empty).
std::vector<FuzzCase> crossOverFlights(const CaseMutator& mutator, std::vector<FuzzCase> a,
                                       const std::vector<FuzzCase>& b, unsigned seed);

// Writes `flight` into libFuzzer's buffer: as many whole cases as fit in `maxSize` (at least the
// first, cut); `flight` keeps only the cases written whole. Returns the size written.
std::size_t writeFuzzFlight(std::vector<FuzzCase>& flight, std::uint8_t* out, std::size_t maxSize);

}  // namespace convcheck
