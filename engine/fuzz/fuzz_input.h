// libFuzzer's bytes as one kind's cases: what the decoder and the mutator know of the kind, an
// input's seed, and a mutant or a cross-over written back into libFuzzer's buffer. Used by the
// fuzzing processes of `convcheck fuzz` and by the in-process harness (which links no libFuzzer
// runtime of convcheck's own: this library holds none).
#pragma once

#include <cstddef>
#include <cstdint>

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

}  // namespace convcheck
