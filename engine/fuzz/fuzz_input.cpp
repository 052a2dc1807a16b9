#include "engine/fuzz/fuzz_input.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace convcheck {

namespace {

std::size_t putBytes(const std::string& bytes, std::uint8_t* out, std::size_t maxSize) {
  const std::size_t n = std::min(bytes.size(), maxSize);
  std::memcpy(out, bytes.data(), n);
  return n;
}

}  // namespace

FuzzKind fuzzKindOf(const KindContext& kind, std::size_t maxBatch) {
  return FuzzKind{&kind.generators(), &kind.checkers(), kind.versions(), kind.vias(), maxBatch};
}

std::uint64_t fuzzInputHash(const std::uint8_t* data, std::size_t size) {
  std::uint64_t h = 1469598103934665603ULL;
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ULL;
  return h;
}

std::size_t mutateInput(CaseMutator& mutator, const FuzzKind& kind, std::uint8_t* data,
                        std::size_t size, std::size_t maxSize, unsigned seed) {
  const FuzzCase c = decodeFuzzCase(kind, data, size);
  for (unsigned attempt = 0; attempt < 4; ++attempt) {
    const std::string bytes = encodeFuzzCase(mutator.mutate(c, seed * 4ULL + attempt).result);
    if (bytes.size() <= maxSize) return putBytes(bytes, data, maxSize);
  }
  return putBytes(encodeFuzzCase(c), data, maxSize);
}

std::size_t crossOverInputs(const CaseMutator& mutator, const FuzzKind& kind, const std::uint8_t* a,
                            std::size_t sizeA, const std::uint8_t* b, std::size_t sizeB,
                            std::uint8_t* out, std::size_t maxOut, unsigned seed) {
  const FuzzCase c =
      mutator.crossOver(decodeFuzzCase(kind, a, sizeA), decodeFuzzCase(kind, b, sizeB), seed);
  return putBytes(encodeFuzzCase(c), out, maxOut);
}

}  // namespace convcheck
