#include "engine/fuzz/fuzz_input.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace convcheck {

namespace {

std::size_t putBytes(const std::string& bytes, std::uint8_t* out, std::size_t maxSize) {
  const std::size_t n = std::min(bytes.size(), maxSize);
  std::memcpy(out, bytes.data(), n);
  return n;
}

// The lines of a flight: bytes that hold one JSON document (or no line break) are one line;
// empty lines are skipped.
std::vector<std::string_view> flightLines(const std::uint8_t* data, std::size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  if (all.find('\n') == std::string_view::npos || nlohmann::json::accept(all)) return {all};
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < all.size();) {
    std::size_t end = all.find('\n', start);
    if (end == std::string_view::npos) end = all.size();
    if (end > start) lines.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  if (lines.empty()) lines.push_back(all);
  return lines;
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

std::vector<FuzzCase> decodeFuzzFlight(CaseMutator& mutator, const FuzzKind& kind,
                                       const std::uint8_t* data, std::size_t size,
                                       std::size_t flightSize) {
  std::vector<FuzzCase> cases;
  for (const std::string_view line : flightLines(data, size)) {
    if (cases.size() == flightSize) break;
    cases.push_back(
        decodeFuzzCase(kind, reinterpret_cast<const std::uint8_t*>(line.data()), line.size()));
  }
  const std::uint64_t hash = fuzzInputHash(data, size);
  for (std::size_t i = cases.size(), lines = cases.size(); i < flightSize; ++i)
    cases.push_back(mutator.mutate(cases[i % lines], hash + i).result);
  return cases;
}

std::string encodeFuzzFlight(const std::vector<FuzzCase>& cases) {
  std::string bytes;
  for (const FuzzCase& c : cases) {
    if (!bytes.empty()) bytes += '\n';
    bytes += encodeFuzzCase(c);
  }
  return bytes;
}

std::vector<FuzzCase> mutateFlight(CaseMutator& mutator, std::vector<FuzzCase> flight,
                                   unsigned seed) {
  for (std::size_t i = 0; i < flight.size(); ++i)
    flight[i] = mutator.mutate(flight[i], std::uint64_t{seed} * flight.size() + i).result;
  return flight;
}

std::vector<FuzzCase> crossOverFlights(const CaseMutator& mutator, std::vector<FuzzCase> a,
                                       const std::vector<FuzzCase>& b, unsigned seed) {
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = mutator.crossOver(a[i], b[(i + seed) % b.size()], std::uint64_t{seed} * a.size() + i);
  return a;
}

std::size_t writeFuzzFlight(std::vector<FuzzCase>& flight, std::uint8_t* out, std::size_t maxSize) {
  std::string bytes;
  std::size_t whole = 0;
  for (; whole < flight.size(); ++whole) {
    const std::string line = encodeFuzzCase(flight[whole]);
    if (bytes.size() + (whole > 0) + line.size() > maxSize) {
      if (whole == 0) bytes = line;  // cut below
      break;
    }
    if (whole > 0) bytes += '\n';
    bytes += line;
  }
  flight.resize(whole);
  return putBytes(bytes, out, maxSize);
}

}  // namespace convcheck
