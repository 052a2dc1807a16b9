#include "harness/fuzz/case_mutator.h"

#include <algorithm>
#include <random>

namespace convcheck {

using nlohmann::json;

const char* mutationName(MutationKind kind) {
  switch (kind) {
    case MutationKind::SetValue:
      return "set-value";
    case MutationKind::DropField:
      return "drop-field";
    case MutationKind::ResizeList:
      return "resize-list";
    case MutationKind::AddObject:
      return "add-object";
    case MutationKind::RemoveObject:
      return "remove-object";
    case MutationKind::RegenerateObject:
      return "regenerate-object";
    case MutationKind::ChangeTarget:
      return "change-target";
  }
  return "?";
}

// A value inside an object's content that the schema describes: where it is and which schema
// field it is ("spec.ports[*].name").
struct CaseMutator::Site {
  json::json_pointer pointer;
  std::string fieldPath;
  bool isArray = false;
  bool inObject = false;             // a field of an object (not a list element): it can be dropped
  const SchemaNode* node = nullptr;  // the schema node of the value
};

struct CaseMutator::Pick {
  std::size_t object = 0;  // index in the batch
  Site site;
};

namespace {

// The schema-described values below `value` (at `node`), outside apiVersion, kind and metadata.
template <typename Out>
void collectSites(const json& value, const SchemaNode* node, const json::json_pointer& pointer,
                  const std::string& fieldPath, bool inObject, Out& out) {
  if (!node) return;
  if (!pointer.empty()) out.push_back({pointer, fieldPath, value.is_array(), inObject, node});
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) {
      if (pointer.empty() && (key == "apiVersion" || key == "kind" || key == "metadata")) continue;
      auto it = node->properties.find(key);
      if (it != node->properties.end()) {
        collectSites(child, it->second.get(), pointer / key,
                     fieldPath.empty() ? key : fieldPath + "." + key, true, out);
      } else if (node->additionalProperties) {
        collectSites(child, node->additionalProperties.get(), pointer / key, fieldPath + "[*]",
                     true, out);
      }
    }
  } else if (value.is_array() && node->items) {
    for (std::size_t i = 0; i < value.size(); ++i)
      collectSites(value[i], node->items.get(), pointer / i, fieldPath + "[*]", false, out);
  }
}

}  // namespace

std::optional<json> CaseMutator::draw(const std::string& version, const std::string& fieldPath,
                                      std::uint64_t seed) {
  const std::string key = version + "|" + fieldPath;
  auto it = gens_.find(key);
  if (it == gens_.end())
    it = gens_.emplace(key, kind_.generators->at(version).valueFor(fieldPath)).first;
  try {
    return it->second(rc::Random(seed), static_cast<int>(seed % 101)).value();
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

Mutation CaseMutator::mutate(const FuzzCase& fuzzCase, std::uint64_t seed) {
  // Weights: mostly small changes inside an object, sometimes a change of the batch.
  static constexpr std::pair<MutationKind, unsigned> kWeights[] = {
      {MutationKind::SetValue, 40},    {MutationKind::DropField, 10},
      {MutationKind::ResizeList, 15},  {MutationKind::AddObject, 8},
      {MutationKind::RemoveObject, 7}, {MutationKind::RegenerateObject, 10},
      {MutationKind::ChangeTarget, 5},
  };
  unsigned total = 0;
  for (const auto& [k, w] : kWeights) total += w;
  std::mt19937_64 rng(seed);
  for (int attempt = 0; attempt < 16; ++attempt) {
    unsigned pick = static_cast<unsigned>(rng() % total);
    MutationKind kind = MutationKind::SetValue;
    for (const auto& [k, w] : kWeights) {
      if (pick < w) {
        kind = k;
        break;
      }
      pick -= w;
    }
    Mutation m{fuzzCase, kind};
    const std::uint64_t s = rng();
    bool done = false;
    switch (kind) {
      case MutationKind::SetValue:
        done = setValue(m.result, s);
        break;
      case MutationKind::DropField:
        done = dropField(m.result, s);
        break;
      case MutationKind::ResizeList:
        done = resizeList(m.result, s);
        break;
      case MutationKind::AddObject:
        done = addObject(m.result, s);
        break;
      case MutationKind::RemoveObject:
        done = removeObject(m.result, s);
        break;
      case MutationKind::RegenerateObject:
        done = regenerateObject(m.result, s);
        break;
      case MutationKind::ChangeTarget:
        done = changeTarget(m.result, s);
        break;
    }
    if (done && !(m.result == fuzzCase)) return m;
  }
  Mutation m{fuzzCase, MutationKind::RegenerateObject};
  regenerateObject(m.result, rng());
  return m;
}

std::optional<CaseMutator::Pick> CaseMutator::pick(const FuzzCase& c, std::mt19937_64& rng,
                                                   bool (*wanted)(const Site&)) const {
  const std::size_t i = rng() % c.objects.size();
  std::vector<Site> sites;
  collectSites(c.objects[i], kind_.generators->at(c.versions[i]).schema().root.get(),
               json::json_pointer(), "", false, sites);
  sites.erase(std::remove_if(sites.begin(), sites.end(), [&](const Site& s) { return !wanted(s); }),
              sites.end());
  if (sites.empty()) return std::nullopt;
  return Pick{i, sites[rng() % sites.size()]};
}

bool CaseMutator::keepIfValid(FuzzCase& c, std::size_t i, json changed) const {
  if (!kind_.valid(changed, c.versions[i])) return false;
  c.objects[i] = std::move(changed);
  return true;
}

bool CaseMutator::setValue(FuzzCase& c, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto p = pick(c, rng, [](const Site&) { return true; });
  if (!p) return false;
  auto value = draw(c.versions[p->object], p->site.fieldPath, rng());
  if (!value) return false;
  json changed = c.objects[p->object];
  changed[p->site.pointer] = std::move(*value);
  return keepIfValid(c, p->object, std::move(changed));
}

bool CaseMutator::dropField(FuzzCase& c, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto p = pick(c, rng, [](const Site& s) { return s.inObject; });
  if (!p) return false;
  json changed = c.objects[p->object];
  changed[p->site.pointer.parent_pointer()].erase(p->site.pointer.back());
  return keepIfValid(c, p->object, std::move(changed));
}

bool CaseMutator::resizeList(FuzzCase& c, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto p = pick(c, rng, [](const Site& s) { return s.isArray; });
  if (!p) return false;
  json changed = c.objects[p->object];
  json& list = changed[p->site.pointer];
  const unsigned how = static_cast<unsigned>(rng() % 4);
  if (how == 3) {
    // A length anywhere the schema allows (at most 64), items removed or drawn to reach it.
    const std::size_t low = p->site.node->minItems.value_or(0);
    const std::size_t high = std::max<std::size_t>(
        low, std::min<std::uint64_t>(p->site.node->maxItems.value_or(64), 64));
    const std::size_t length = low + rng() % (high - low + 1);
    while (list.size() > length)
      list.erase(list.begin() + static_cast<std::ptrdiff_t>(rng() % list.size()));
    while (list.size() < length) {
      auto item = draw(c.versions[p->object], p->site.fieldPath + "[*]", rng());
      if (!item) return false;
      list.push_back(std::move(*item));
    }
  } else if (how == 0 && !list.empty()) {
    list.erase(list.begin() + static_cast<std::ptrdiff_t>(rng() % list.size()));
  } else if (how == 1 && !list.empty()) {
    const std::size_t at = rng() % list.size();
    list.insert(list.begin() + static_cast<std::ptrdiff_t>(at), json(list[at]));
  } else {
    auto item = draw(c.versions[p->object], p->site.fieldPath + "[*]", rng());
    if (!item) return false;
    list.insert(list.begin() + static_cast<std::ptrdiff_t>(rng() % (list.size() + 1)),
                std::move(*item));
  }
  return keepIfValid(c, p->object, std::move(changed));
}

bool CaseMutator::addObject(FuzzCase& c, std::uint64_t seed) const {
  if (c.objects.size() >= kind_.maxBatch) return false;
  std::mt19937_64 rng(seed);
  const std::vector<std::string> sources = kind_.sourcesFor(c.to);
  const std::string version = sources[rng() % sources.size()];
  const std::size_t at = rng() % (c.objects.size() + 1);
  c.objects.insert(c.objects.begin() + static_cast<std::ptrdiff_t>(at),
                   generatedFuzzObject(kind_, version, rng()));
  c.versions.insert(c.versions.begin() + static_cast<std::ptrdiff_t>(at), version);
  makeIdentitiesUnique(c, seed);
  return true;
}

bool CaseMutator::removeObject(FuzzCase& c, std::uint64_t seed) const {
  if (c.objects.size() < 2) return false;
  const std::size_t at = seed % c.objects.size();
  c.objects.erase(c.objects.begin() + static_cast<std::ptrdiff_t>(at));
  c.versions.erase(c.versions.begin() + static_cast<std::ptrdiff_t>(at));
  return true;
}

bool CaseMutator::regenerateObject(FuzzCase& c, std::uint64_t seed) const {
  std::mt19937_64 rng(seed);
  const std::vector<std::string> sources = kind_.sourcesFor(c.to);
  const std::size_t at = rng() % c.objects.size();
  const std::string version = sources[rng() % sources.size()];
  c.objects[at] = generatedFuzzObject(kind_, version, rng(), rng() % 8 == 0);
  c.versions[at] = version;
  makeIdentitiesUnique(c, seed);
  return true;
}

bool CaseMutator::changeTarget(FuzzCase& c, std::uint64_t seed) const {
  std::mt19937_64 rng(seed);
  std::vector<std::string> others;
  for (const auto& v : kind_.targets)
    if (v != c.to) others.push_back(v);
  if (others.empty()) return false;
  c.to = others[rng() % others.size()];
  const std::vector<std::string> sources = kind_.sourcesFor(c.to);
  if (sources.empty()) return false;
  // Objects already in the new version are replaced: a batch never holds its target version.
  for (std::size_t i = 0; i < c.objects.size(); ++i) {
    if (c.versions[i] != c.to) continue;
    c.versions[i] = sources[rng() % sources.size()];
    c.objects[i] = generatedFuzzObject(kind_, c.versions[i], rng());
  }
  makeIdentitiesUnique(c, seed);
  return true;
}

FuzzCase CaseMutator::crossOver(const FuzzCase& a, const FuzzCase& b, std::uint64_t seed) const {
  std::mt19937_64 rng(seed);
  FuzzCase c;
  c.to = a.to;
  const std::size_t keep = 1 + rng() % a.objects.size();
  for (std::size_t i = 0; i < keep; ++i) {
    c.objects.push_back(a.objects[i]);
    c.versions.push_back(a.versions[i]);
  }
  for (std::size_t i = rng() % b.objects.size(); i < b.objects.size(); ++i) {
    if (c.objects.size() >= kind_.maxBatch) break;
    if (b.versions[i] == c.to) continue;
    c.objects.push_back(b.objects[i]);
    c.versions.push_back(b.versions[i]);
  }
  makeIdentitiesUnique(c, seed);
  return c;
}

}  // namespace convcheck
