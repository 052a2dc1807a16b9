// The shapes of generated objects, measured against their schemas: list lengths (and how often a
// list reaches its maxItems), key counts and depth of maps and free-form values, punctuation in
// free strings, repeated `type`/`name` fields in lists that allow them, the int-or-string range,
// realistic metadata, object sizes and the size of each version pair's 500-object LIST chunk.
// Usage: shape_bench [--objects N] [--seed S] PATH... (CRD files or directories, searched
// recursively); bench/shapes.sh runs it over the example CRDs and the CRD zoo.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "generators/format_check.h"
#include "generators/object_gen.h"
#include "harness/plan/planned_batch.h"
#include "harness/plan/test_plan.h"
#include "kube/crd/crd_loader.h"

namespace {

using convcheck::SchemaNode;
using nlohmann::json;

// A sample of non-negative numbers with its percentiles.
struct Sample {
  std::vector<double> values;
  void add(double v) { values.push_back(v); }
  double at(double q) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const auto i = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(i, values.size() - 1)];
  }
  double mean() const {
    double s = 0;
    for (double v : values) s += v;
    return values.empty() ? 0 : s / static_cast<double>(values.size());
  }
  double shareAtLeast(double x) const {
    if (values.empty()) return 0;
    return static_cast<double>(
               std::count_if(values.begin(), values.end(), [x](double v) { return v >= x; })) /
           static_cast<double>(values.size());
  }
};

struct Ratio {
  std::size_t hits = 0, total = 0;
  void add(bool hit) {
    ++total;
    if (hit) ++hits;
  }
  std::string str() const {
    if (total == 0) return "n/a";
    return fmt::format("{:.1f}% of {}", 100.0 * static_cast<double>(hits) / total, total);
  }
};

constexpr std::string_view kPunctuation = "=,;:?&@%[";

struct Stats {
  Sample listLength;         // every list of the content (not metadata)
  Ratio longList;            // lists longer than 5 items
  Ratio reachesMaxItems;     // lists with maxItems that reach it
  Sample mapKeys;            // keys of additionalProperties maps and of free-form objects
  Sample freeFormDepth;      // nesting depth of free-form values
  Ratio punctuatedString;    // free strings with one of kPunctuation
  std::set<char> printable;  // printable ASCII characters seen in free strings
  Ratio repeatedKey;         // lists of 2+ items that may repeat `type`/`name` and do
  std::size_t intOrStringInts = 0, beyondInt32 = 0;
  double largestIntOrString = 0;
  Ratio managedFields, mirroredFields, lastApplied;
  Sample objectBytes;
  Sample chunkBytes;  // the 500-object LIST chunk of each version pair
  std::size_t versions = 0, objects = 0, crds = 0;
};

bool freeString(const SchemaNode& n) {
  return n.type == convcheck::SchemaType::String && !n.pattern && !n.enumValues &&
         (n.format.empty() || !convcheck::isStringFormat(n.format));
}

int depthOf(const json& v) {
  if (!v.is_structured() || v.empty()) return v.is_structured() ? 1 : 0;
  int d = 0;
  for (const auto& c : v) d = std::max(d, depthOf(c));
  return d + 1;
}

void freeForm(const json& v, Stats& s, bool top) {
  if (top) s.freeFormDepth.add(depthOf(v));
  if (v.is_object()) s.mapKeys.add(static_cast<double>(v.size()));
  if (v.is_structured())
    for (const auto& c : v) freeForm(c, s, false);
}

// The fields an item of `list` may repeat: `type` and `name`, unless they alone key the list.
std::vector<std::string> repeatableKeys(const SchemaNode& list) {
  std::vector<std::string> out;
  if (!list.items) return out;
  for (const char* k : {"type", "name"}) {
    if (!list.items->property(k)) continue;
    if (list.listType == "map" && list.listMapKeys == std::vector<std::string>{k}) continue;
    out.push_back(k);
  }
  return out;
}

// A node whose values are free-form JSON (preserved, nothing described).
bool freeFormNode(const SchemaNode& n) {
  return n.preserveUnknownFields && !n.hasProperties && !n.additionalProperties && !n.intOrString;
}

void walk(const json& v, const SchemaNode* n, Stats& s) {
  if (!n || freeFormNode(*n)) return freeForm(v, s, true);
  if (n->intOrString && v.is_number_integer()) {
    ++s.intOrStringInts;
    const double d = v.is_number_unsigned() ? static_cast<double>(v.get<std::uint64_t>())
                                            : static_cast<double>(v.get<std::int64_t>());
    if (d > 2147483647.0 || d < -2147483648.0) ++s.beyondInt32;
    s.largestIntOrString = std::max(s.largestIntOrString, std::abs(d));
  }
  if (v.is_string() && freeString(*n)) {
    const auto& str = v.get_ref<const std::string&>();
    s.punctuatedString.add(str.find_first_of(kPunctuation) != std::string::npos);
    for (char c : str)
      if (c >= 0x20 && c < 0x7f) s.printable.insert(c);
  }
  if (v.is_array()) {
    s.listLength.add(static_cast<double>(v.size()));
    s.longList.add(v.size() > 5);
    if (n->maxItems && *n->maxItems > 0) s.reachesMaxItems.add(v.size() >= *n->maxItems);
    if (v.size() >= 2) {
      const auto keys = repeatableKeys(*n);
      if (!keys.empty()) {
        bool repeated = false;
        for (const auto& k : keys) {
          std::set<std::string> seen;
          for (const auto& item : v)
            if (item.is_object() && item.contains(k) && !seen.insert(item[k].dump()).second)
              repeated = true;
        }
        s.repeatedKey.add(repeated);
      }
    }
    for (const auto& item : v) walk(item, n->items.get(), s);
    return;
  }
  if (!v.is_object()) return;
  if (n->additionalProperties || n->additionalPropertiesBool.value_or(false))
    s.mapKeys.add(static_cast<double>(v.size()));
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (auto p = n->properties.find(it.key()); p != n->properties.end())
      walk(it.value(), p->second.get(), s);
    else if (n->additionalProperties)
      walk(it.value(), n->additionalProperties.get(), s);
    else
      freeForm(it.value(), s, true);  // an unknown field kept, or a value of a free map
  }
}

void measureObject(const json& o, const SchemaNode& root, Stats& s) {
  ++s.objects;
  s.objectBytes.add(static_cast<double>(o.dump().size()));
  json content = o;
  content.erase("metadata");
  content.erase("apiVersion");
  content.erase("kind");
  walk(content, &root, s);
  const json& md = o.at("metadata");
  const bool mf = md.contains("managedFields");
  s.managedFields.add(mf);
  bool mirrored = false;
  if (mf)
    for (const auto& e : md["managedFields"])
      if (e.contains("fieldsV1") && !e["fieldsV1"].empty()) mirrored = true;
  s.mirroredFields.add(mirrored);
  s.lastApplied.add(md.contains("annotations") &&
                    md["annotations"].contains("kubectl.kubernetes.io/last-applied-configuration"));
}

std::vector<convcheck::Crd> loadAll(const std::vector<std::string>& paths) {
  std::vector<std::filesystem::path> files;
  for (const auto& p : paths) {
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file() && e.path().extension() == ".yaml") files.push_back(e.path());
    } else {
      files.emplace_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<convcheck::Crd> crds;
  for (const auto& f : files) {
    std::istringstream noStdin;
    auto loaded = convcheck::loadCrdInput(f.string(), noStdin);
    for (auto& c : loaded.crds) crds.push_back(std::move(c));
  }
  return crds;
}

void measureCrd(const convcheck::Crd& crd, int n, std::uint64_t seed, Stats& s) {
  std::map<std::string, convcheck::ObjectGenerator> gens;
  std::vector<std::string> versions;
  for (const auto& v : crd.versions) {
    if (v.schema.is_null()) continue;
    auto g = convcheck::ObjectGenerator::compile(crd, v.name);
    if (auto* e = std::get_if<std::string>(&g)) {
      std::cerr << "skipped: " << *e << "\n";
      continue;
    }
    gens.emplace(v.name, std::get<convcheck::ObjectGenerator>(std::move(g)));
    versions.push_back(v.name);
  }
  ++s.crds;
  for (const auto& [name, g] : gens) {
    ++s.versions;
    const SchemaNode& root = *g.schema().root;
    convcheck::forEachGeneratedObject(g, seed, n,
                                      [&](int, json&& o) { measureObject(o, root, s); });
  }
  // Each pair's LIST chunk as the runner plans and draws it (default --tests and --batch-size).
  for (const auto& from : versions)
    for (const auto& to : versions) {
      if (from == to) continue;
      convcheck::PairPlan plan(
          {crd.kind, from, to, versions, 100, convcheck::kListChunkObjects, seed});
      for (int i = 0; i < 100; ++i) {
        const convcheck::PlannedCase c = plan.next();
        if (!c.listChunk) continue;
        std::size_t bytes = 2;
        for (std::size_t j = 0; j < c.sourceVersions.size(); ++j)
          bytes += 1 + convcheck::plannedObject(gens.at(c.sourceVersions[j]), c, j).dump().size();
        s.chunkBytes.add(static_cast<double>(bytes));
        break;
      }
    }
}

std::string kb(double bytes) { return fmt::format("{:.1f} kB", bytes / 1e3); }

void print(Stats& s) {
  auto row = [](const std::string& name, const std::string& value) {
    std::cout << fmt::format("{:<44} {}\n", name, value);
  };
  auto dist = [](Sample& x) {
    return fmt::format("p50 {:g}, p90 {:g}, p99 {:g}, max {:g}", x.at(0.5), x.at(0.9), x.at(0.99),
                       x.at(1));
  };
  row("CRDs / versions / objects", fmt::format("{} / {} / {}", s.crds, s.versions, s.objects));
  row("list length", dist(s.listLength));
  row("lists longer than 5 items", s.longList.str());
  row("lists with maxItems that reach it", s.reachesMaxItems.str());
  row("map / free-form object keys", dist(s.mapKeys));
  row("free-form depth", dist(s.freeFormDepth));
  row("free strings with = , ; : ? & @ % [", s.punctuatedString.str());
  row("printable ASCII seen in free strings", fmt::format("{} of 95", s.printable.size()));
  row("lists repeating type/name (where allowed)", s.repeatedKey.str());
  row("int-or-string integers beyond int32",
      fmt::format("{} of {} (largest |v| {:.3g})", s.beyondInt32, s.intOrStringInts,
                  s.largestIntOrString));
  row("objects with managedFields", s.managedFields.str());
  row("objects with fieldsV1 mirroring fields", s.mirroredFields.str());
  row("objects with last-applied-configuration", s.lastApplied.str());
  row("object size",
      fmt::format("mean {}, p50 {}, p90 {}, p99 {}, max {}", kb(s.objectBytes.mean()),
                  kb(s.objectBytes.at(0.5)), kb(s.objectBytes.at(0.9)), kb(s.objectBytes.at(0.99)),
                  kb(s.objectBytes.at(1))));
  row("500-object LIST chunk per pair",
      fmt::format("min {}, p50 {}, max {}; {:.0f}% of {} pairs over 1 MiB", kb(s.chunkBytes.at(0)),
                  kb(s.chunkBytes.at(0.5)), kb(s.chunkBytes.at(1)),
                  100 * s.chunkBytes.shareAtLeast(1024.0 * 1024.0), s.chunkBytes.values.size()));
}

}  // namespace

int main(int argc, char** argv) {
  int n = 500;
  std::uint64_t seed = 1;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--objects" && i + 1 < argc)
      n = std::atoi(argv[++i]);
    else if (a == "--seed" && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else
      paths.push_back(a);
  }
  if (paths.empty()) {
    std::cerr << "usage: shape_bench [--objects N] [--seed S] PATH...\n";
    return 2;
  }
  Stats s;
  for (const auto& crd : loadAll(paths)) {
    try {
      measureCrd(crd, n, seed, s);
    } catch (const std::exception& e) {
      std::cerr << crd.name << ": " << e.what() << "\n";
      return 1;
    }
  }
  print(s);
  return 0;
}
