// Generation under x-kubernetes-validations, over every CRD directory below a folder (default
// corpora/crds, the 59 real CRDs): per version with rules, the share of generated objects that
// satisfy every rule with rules honoured and without, and objects/s both ways.
// Usage: validation_rules_bench [DIR] [OBJECTS_PER_VERSION]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "generators/object_gen.h"
#include "kube/cel/rule_set.h"
#include "kube/crd/crd_loader.h"

using namespace convcheck;

namespace {

struct Measure {
  int satisfied = 0;
  double seconds = 0;
};

Measure measure(const Crd& crd, const std::string& version, const cel::RuleSet& rules, bool honour,
                int n) {
  GeneratorOptions options;
  options.validationRules = honour;
  auto gen = ObjectGenerator::compile(crd, version, options);
  Measure m;
  if (!std::holds_alternative<ObjectGenerator>(gen)) return m;
  const auto start = std::chrono::steady_clock::now();
  auto objects = generateObjects(std::get<ObjectGenerator>(gen), 1, n);
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& o : objects)
    if (rules.validate(o).empty()) ++m.satisfied;
  if (honour)
    for (const auto& note : std::get<ObjectGenerator>(gen).ruleNotes())
      std::cerr << "  note: " << crd.name << " " << version << ": " << note << "\n";
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : CONVCHECK_SOURCE_DIR "/corpora/crds";
  const int n = argc > 2 ? std::atoi(argv[2]) : 200;
  int versions = 0, goodVersions = 0, goodVersionsBefore = 0;
  double withTime = 0, withoutTime = 0;
  long objects = 0;
  std::printf(
      "| CRD | version | rules | satisfy all rules (before) | satisfy all rules (now) "
      "|\n|---|---|---|---|---|\n");
  std::vector<std::filesystem::path> dirs;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_directory()) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  for (const auto& d : dirs) {
    std::istringstream none;
    auto loaded = loadCrdInput(d.string(), none);
    for (const auto& crd : loaded.crds)
      for (const auto& v : crd.versions) {
        if (v.schema.is_null()) continue;
        auto rules = cel::RuleSet::compile(v.schema);
        if (rules.empty()) continue;
        ++versions;
        const Measure before = measure(crd, v.name, rules, false, n);
        const Measure now = measure(crd, v.name, rules, true, n);
        withoutTime += before.seconds;
        withTime += now.seconds;
        objects += n;
        if (now.satisfied * 100 >= 95 * n) ++goodVersions;
        if (before.satisfied * 100 >= 95 * n) ++goodVersionsBefore;
        std::printf("| %s | %s | %zu | %.1f%% | %.1f%% |\n", crd.name.c_str(), v.name.c_str(),
                    rules.rules().size(), 100.0 * before.satisfied / n, 100.0 * now.satisfied / n);
      }
  }
  std::printf(
      "\nversions with rules: %d; with >= 95%% of objects satisfying every rule: %d before, %d now "
      "(%.1f%%)\n",
      versions, goodVersionsBefore, goodVersions, versions ? 100.0 * goodVersions / versions : 0.0);
  std::printf("objects/s over these versions (one thread): %.0f without rules, %.0f with rules\n",
              withoutTime > 0 ? objects / withoutTime : 0.0,
              withTime > 0 ? objects / withTime : 0.0);
  return 0;
}
