#include "harness/fuzz/fuzz_case.h"

#include <random>
#include <stdexcept>

#include "harness/plan/planned_batch.h"

namespace convcheck {

using nlohmann::json;

namespace {

std::uint64_t hashBytes(const std::uint8_t* data, std::size_t size, std::uint64_t salt) {
  std::uint64_t h = 1469598103934665603ULL ^ salt;
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ULL;
  return h ^ (h >> 29);
}

std::uint64_t hashText(const std::string& text, std::uint64_t salt) {
  return hashBytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), salt);
}

// `c` with its per-object versions filled in from the objects.
void fillVersions(const FuzzKind& kind, FuzzCase& c) {
  c.versions.clear();
  for (const auto& o : c.objects) c.versions.push_back(kind.versionOf(o));
}

}  // namespace

bool FuzzKind::valid(const json& object, const std::string& version) const {
  auto gen = generators->find(version);
  auto check = checkers->find(version);
  if (gen == generators->end() || check == checkers->end() || !object.is_object()) return false;
  auto api = object.find("apiVersion");
  auto k = object.find("kind");
  if (api == object.end() || *api != gen->second.apiVersion()) return false;
  if (k == object.end() || *k != gen->second.kind()) return false;
  return check->second.checkNative(object).empty();
}

std::vector<std::string> FuzzKind::sourcesFor(const std::string& to) const {
  std::vector<std::string> out;
  for (const auto& v : sources)
    if (v != to) out.push_back(v);
  return out;
}

std::string FuzzKind::versionOf(const json& object) const {
  if (!object.is_object()) return "";
  auto api = object.find("apiVersion");
  if (api == object.end() || !api->is_string()) return "";
  for (const auto& v : sources) {
    auto gen = generators->find(v);
    if (gen != generators->end() && *api == gen->second.apiVersion()) return v;
  }
  return "";
}

json generatedFuzzObject(const FuzzKind& kind, const std::string& version, std::uint64_t seed,
                         bool minimal) {
  const ObjectGenerator& gen = kind.generators->at(version);
  std::mt19937_64 rng(seed);
  std::string last;
  for (int attempt = 0; attempt < 8; ++attempt) {
    const int size = static_cast<int>(rng() % 101);
    try {
      json object =
          gen.drawObject(rc::Random(rng()), size, minimal ? ObjectMix::Minimal : ObjectMix::Any);
      if (kind.valid(object, version)) return object;
      last = "an invalid object";
    } catch (const std::exception& e) {
      last = e.what();
    }
  }
  throw std::runtime_error("version " + version + ": no object could be generated (" + last + ")");
}

void makeIdentitiesUnique(FuzzCase& c, std::uint64_t seed) {
  std::vector<std::size_t> slots(c.objects.size());
  for (std::size_t i = 0; i < slots.size(); ++i) slots[i] = i;
  c.objects = uniqueIdentities(std::move(c.objects), slots, seed);
}

FuzzCase generatedFuzzCase(const FuzzKind& kind, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  FuzzCase c;
  c.to = kind.targets[rng() % kind.targets.size()];
  const auto sources = kind.sourcesFor(c.to);
  if (sources.empty()) throw std::runtime_error("no version to convert to " + c.to + " from");
  std::size_t n = 1;
  if (kind.maxBatch > 1 && rng() % 4 == 0) n = 2 + rng() % (kind.maxBatch - 1);
  const bool minimal = n == 1 && rng() % 8 == 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& version = sources[rng() % sources.size()];
    c.objects.push_back(generatedFuzzObject(kind, version, rng(), minimal));
  }
  makeIdentitiesUnique(c, seed);
  fillVersions(kind, c);
  return c;
}

FuzzCase decodeFuzzCase(const FuzzKind& kind, const std::uint8_t* data, std::size_t size) {
  const std::uint64_t whole = hashBytes(data, size, 0);
  json doc = json::parse(data, data + size, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return generatedFuzzCase(kind, whole);
  auto to = doc.find("to");
  auto objects = doc.find("objects");
  if (to == doc.end() || !to->is_string() || objects == doc.end() || !objects->is_array() ||
      objects->empty())
    return generatedFuzzCase(kind, whole);
  FuzzCase c;
  for (const auto& t : kind.targets)
    if (*to == t) c.to = t;
  if (c.to.empty()) return generatedFuzzCase(kind, whole);
  const auto sources = kind.sourcesFor(c.to);
  if (sources.empty()) return generatedFuzzCase(kind, whole);
  for (std::size_t i = 0; i < objects->size() && i < kind.maxBatch; ++i) {
    json& entry = (*objects)[i];
    const std::string version = kind.versionOf(entry);
    if (!version.empty() && version != c.to && kind.valid(entry, version)) {
      c.objects.push_back(std::move(entry));
      continue;
    }
    // A broken entry becomes an object generated from its own bytes: a change to one object of
    // a batch leaves the others as they were.
    const std::uint64_t seed = hashText(entry.dump(), i);
    c.objects.push_back(generatedFuzzObject(kind, sources[seed % sources.size()], seed >> 8));
  }
  makeIdentitiesUnique(c, whole);
  fillVersions(kind, c);
  return c;
}

std::string encodeFuzzCase(const FuzzCase& c) {
  json doc = {{"to", c.to}, {"objects", c.objects}};
  return doc.dump();
}

}  // namespace convcheck
