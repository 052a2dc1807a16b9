#include "harness/fuzz/case_mutator.h"

#include <algorithm>
#include <random>

#include "generators/container_shapes.h"
#include "generators/json_gen.h"
#include "generators/string_gen.h"
#include "kube/go/utf8.h"

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
    case MutationKind::EditString:
      return "edit-string";
    case MutationKind::RepeatKey:
      return "repeat-key";
    case MutationKind::EditFreeForm:
      return "edit-free-form";
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

// A value inside an object's content: where it is and which schema field it is
// ("spec.ports[*].name"), or that no schema describes it (kept by preserve-unknown-fields).
struct CaseMutator::Site {
  json::json_pointer pointer;
  std::string fieldPath;
  bool isArray = false;
  bool inObject = false;             // a field of an object (not a list element): it can be dropped
  const SchemaNode* node = nullptr;  // the schema node of the value; null in free-form values
  bool freeForm = false;             // any JSON may stand here (no schema, or a typeless one)
  bool isString = false;
  bool takesKeys = false;  // an object that keeps keys of any name (preserve-unknown, free-form)
};

struct CaseMutator::Pick {
  std::size_t object = 0;  // index in the batch
  Site site;
};

namespace {

// A schema node that takes any JSON: preserved and typeless, with nothing described.
bool typelessFreeForm(const SchemaNode& n) {
  return n.type == SchemaType::None && n.preserveUnknownFields && !n.hasProperties &&
         !n.intOrString && n.required.empty();
}

// The values below `value` (at `node`, null in free-form values), outside apiVersion, kind and
// metadata.
template <typename Out>
void collectSites(const json& value, const SchemaNode* node, const json::json_pointer& pointer,
                  const std::string& fieldPath, bool inObject, Out& out) {
  const bool freeForm = !node || typelessFreeForm(*node);
  if (!pointer.empty()) {
    const bool takesKeys =
        value.is_object() && (freeForm || (node->preserveUnknownFields && !node->embeddedResource));
    out.push_back({pointer, fieldPath, value.is_array(), inObject, node, freeForm,
                   value.is_string(), takesKeys});
  }
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) {
      if (pointer.empty() && (key == "apiVersion" || key == "kind" || key == "metadata")) continue;
      if (!node) {
        collectSites(child, nullptr, pointer / key, fieldPath + "." + key, true, out);
        continue;
      }
      if (node->embeddedResource && (key == "apiVersion" || key == "kind" || key == "metadata"))
        continue;
      auto it = node->properties.find(key);
      if (it != node->properties.end()) {
        collectSites(child, it->second.get(), pointer / key,
                     fieldPath.empty() ? key : fieldPath + "." + key, true, out);
      } else if (node->additionalProperties) {
        collectSites(child, node->additionalProperties.get(), pointer / key, fieldPath + "[*]",
                     true, out);
      } else if (node->preserveUnknownFields || node->additionalPropertiesBool.value_or(false)) {
        collectSites(child, nullptr, pointer / key, fieldPath + "." + key, true, out);
      }
    }
  } else if (value.is_array() && (!node || node->items || freeForm)) {
    const SchemaNode* items = node ? node->items.get() : nullptr;
    for (std::size_t i = 0; i < value.size(); ++i)
      collectSites(value[i], items, pointer / i, fieldPath + "[*]", false, out);
  }
}

// A key for a preserve-unknown or free-form object: field-like names, and names with the dots,
// slashes, spaces and punctuation that keys of free maps carry.
std::string freeKey(std::mt19937_64& rng) {
  static constexpr const char* kKeys[] = {"extra",
                                          "config.yaml",
                                          "app.kubernetes.io/name",
                                          "with space",
                                          "a=b",
                                          "KEY_NAME",
                                          "x:y",
                                          "ünïcode",
                                          "$ref",
                                          "[0]",
                                          "",
                                          "nested"};
  return std::string(kKeys[rng() % (sizeof(kKeys) / sizeof(*kKeys))]) + std::to_string(rng() % 100);
}

// A free-form JSON value (any depth the generators draw, often nested), from `seed`.
json freeValue(std::uint64_t seed) {
  return arbitraryJson(3, true, true)(rc::Random(seed), static_cast<int>(seed % 101)).value();
}

// Characters an edit inserts: printable ASCII punctuation, a space, controls and non-ASCII.
char32_t editChar(std::mt19937_64& rng) {
  static constexpr char32_t kChars[] = {
      '=', ',',  ';',  ':', '?', '&',  '@',  '%', '[', ']', '{',    '}',    '(',     ')',
      '"', '\\', '\'', '`', '#', '!',  '*',  '+', '|', '<', '>',    '~',    '^',     '$',
      ' ', '/',  '.',  '-', '_', '\n', '\t', 'a', 'Z', '0', 0x00E9, 0x65E5, 0x1F600, 0x00A0};
  return kChars[rng() % (sizeof(kChars) / sizeof(*kChars))];
}

// `text` edited once at code-point level: a character inserted, removed, replaced or repeated, a
// span doubled, or a punctuated value (a URL, a selector, …) spliced in.
std::string editedString(const std::string& text, std::mt19937_64& rng) {
  std::u32string cps;
  std::size_t pos = 0;
  char32_t rune = 0;
  while (nextRune(text, pos, rune)) cps.push_back(rune);
  const std::size_t at = cps.empty() ? 0 : rng() % (cps.size() + 1);
  switch (rng() % 6) {
    case 0:
      cps.insert(cps.begin() + static_cast<std::ptrdiff_t>(at), editChar(rng));
      break;
    case 1:
      if (!cps.empty()) cps.erase(cps.begin() + static_cast<std::ptrdiff_t>(rng() % cps.size()));
      break;
    case 2:
      if (!cps.empty())
        cps[rng() % cps.size()] = editChar(rng);
      else
        cps.push_back(editChar(rng));
      break;
    case 3:
      if (!cps.empty()) {
        const std::size_t from = rng() % cps.size();
        const std::size_t length = 1 + rng() % std::min<std::size_t>(8, cps.size() - from);
        cps.insert(from, cps.substr(from, length));
      }
      break;
    case 4: {
      rc::Random r(rng());
      const std::string v = punctuatedValue(r);
      std::u32string splice;
      std::size_t p = 0;
      while (nextRune(v, p, rune)) splice.push_back(rune);
      cps.insert(at, splice.substr(0, 1 + rng() % splice.size()));
      break;
    }
    default:
      cps.insert(cps.begin() + static_cast<std::ptrdiff_t>(at), editChar(rng));
      cps.insert(cps.begin() + static_cast<std::ptrdiff_t>(at), editChar(rng));
      break;
  }
  return encodeRunes(cps);
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
      {MutationKind::SetValue, 32},        {MutationKind::DropField, 9},
      {MutationKind::ResizeList, 12},      {MutationKind::EditString, 10},
      {MutationKind::RepeatKey, 5},        {MutationKind::EditFreeForm, 8},
      {MutationKind::AddObject, 7},        {MutationKind::RemoveObject, 6},
      {MutationKind::RegenerateObject, 7}, {MutationKind::ChangeTarget, 4},
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
      case MutationKind::EditString:
        done = editString(m.result, s);
        break;
      case MutationKind::RepeatKey:
        done = repeatKey(m.result, s);
        break;
      case MutationKind::EditFreeForm:
        done = editFreeForm(m.result, s);
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
  auto p = pick(c, rng, [](const Site& s) { return s.node != nullptr; });
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
  auto p = pick(c, rng, [](const Site& s) { return s.isArray && s.node; });
  if (!p) return false;
  json changed = c.objects[p->object];
  json& list = changed[p->site.pointer];
  const unsigned how = static_cast<unsigned>(rng() % 4);
  if (how == 3) {
    // A length anywhere the schema allows (up to its maxItems, or 64 without one), as often
    // exactly the longest; items removed or drawn to reach it.
    const std::size_t low = p->site.node->minItems.value_or(0);
    const std::size_t high = std::max<std::size_t>(
        low, p->site.node->maxItems ? std::min<std::uint64_t>(*p->site.node->maxItems, kLongestList)
                                    : 64);
    const std::size_t length = rng() % 3 == 0 ? high : low + rng() % (high - low + 1);
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

bool CaseMutator::editString(FuzzCase& c, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto p = pick(c, rng, [](const Site& s) { return s.isString; });
  if (!p) return false;
  // A few tries: a pattern or a length bound may refuse one edit and take another.
  for (int attempt = 0; attempt < 4; ++attempt) {
    json changed = c.objects[p->object];
    json& text = changed[p->site.pointer];
    std::string edited = text.get<std::string>();
    for (std::uint64_t edits = 1 + rng() % 3; edits > 0; --edits)
      edited = editedString(edited, rng);
    if (edited == text.get<std::string>()) continue;
    text = edited;
    if (keepIfValid(c, p->object, std::move(changed))) return true;
  }
  return false;
}

bool CaseMutator::repeatKey(FuzzCase& c, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto p = pick(c, rng, [](const Site& s) {
    return s.isArray && s.node && !repeatableKeyFields(*s.node).empty();
  });
  if (!p) return false;
  const auto fields = repeatableKeyFields(*p->site.node);
  const std::string& field = fields[rng() % fields.size()];
  json changed = c.objects[p->object];
  json& list = changed[p->site.pointer];
  std::vector<std::size_t> with;
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].is_object() && list[i].contains(field)) with.push_back(i);
  if (with.size() < 2) return false;
  const std::size_t from = with[rng() % with.size()];
  std::size_t to = with[rng() % with.size()];
  if (to == from)
    to = with[(std::find(with.begin(), with.end(), from) - with.begin() + 1) % with.size()];
  if (list[to][field] == list[from][field]) return false;
  list[to][field] = list[from][field];
  return keepIfValid(c, p->object, std::move(changed));
}

bool CaseMutator::editFreeForm(FuzzCase& c, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto p = pick(c, rng, [](const Site& s) { return s.takesKeys || s.freeForm; });
  if (!p) return false;
  json changed = c.objects[p->object];
  json& value = changed[p->site.pointer];
  const unsigned how = static_cast<unsigned>(rng() % 3);
  if (value.is_object() && p->site.takesKeys && how != 2) {
    // Keys added: one, or (how 1) a dozen or more, with values of any depth.
    for (std::uint64_t n = how == 0 ? 1 : 8 + rng() % 17; n > 0; --n)
      value[freeKey(rng)] = freeValue(rng());
  } else if (value.is_array() && p->site.freeForm && how != 2) {
    for (std::uint64_t n = how == 0 ? 1 : 8 + rng() % 17; n > 0; --n)
      value.push_back(freeValue(rng()));
  } else if (p->site.freeForm) {
    // The value nested one to four levels deeper, under an object key or in a list.
    for (std::uint64_t levels = 1 + rng() % 4; levels > 0; --levels)
      value = rng() % 2 ? json{{freeKey(rng), std::move(value)}} : json::array({std::move(value)});
  } else {
    return false;
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
