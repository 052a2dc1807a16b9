// Throughput of the generators: objects/s and bytes/s (compact JSON) for the ten largest schemas
// of the CRD zoo, plus the cost of compiling a generator and of the validity check.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "generators/object_gen.h"
#include "generators/validity.h"
#include "kube/crd/crd_loader.h"

namespace {

using convcheck::Crd;
using convcheck::ObjectGenerator;

struct Target {
  Crd crd;
  std::string version;
  std::size_t nodes = 0;
};

std::vector<Target> largestSchemas(std::size_t count) {
  const char* env = std::getenv("CONVCHECK_ZOO_DIR");
  const std::filesystem::path dir = env && *env ? env : CONVCHECK_SOURCE_DIR "/corpora/crds";
  std::vector<Crd> crds;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().extension() != ".yaml") continue;
    std::istringstream noStdin;
    auto loaded = convcheck::loadCrdInput(e.path().string(), noStdin);
    for (const auto& err : loaded.errors) std::cerr << "zoo: " << err.text() << "\n";
    for (auto& c : loaded.crds) crds.push_back(std::move(c));
  }
  std::vector<Target> best;  // the largest version of each CRD
  for (const auto& crd : crds) {
    Target t{crd, "", 0};
    for (const auto& v : crd.versions) {
      auto parsed = convcheck::parseSchema(v.schema.is_null() ? nlohmann::json{{"type", "object"}}
                                                              : v.schema);
      if (auto* p = std::get_if<convcheck::ParsedSchema>(&parsed); p && p->nodeCount > t.nodes) {
        t.version = v.name;
        t.nodes = p->nodeCount;
      }
    }
    if (!t.version.empty()) best.push_back(std::move(t));
  }
  std::sort(best.begin(), best.end(),
            [](const Target& a, const Target& b) { return a.nodes > b.nodes; });
  if (best.size() > count) best.resize(count);
  return best;
}

void generate(benchmark::State& state, const Target& t) {
  auto compiled = ObjectGenerator::compile(t.crd, t.version);
  if (auto* e = std::get_if<std::string>(&compiled)) return state.SkipWithError(e->c_str());
  const auto objects = std::get<ObjectGenerator>(compiled).objects();
  rc::Random random(1);
  std::int64_t bytes = 0;
  int size = 0;
  for (auto _ : state) {
    const nlohmann::json o = objects(random.split(), 10 + (size++ * 37) % 91).value();
    bytes += static_cast<std::int64_t>(o.dump().size());
    benchmark::DoNotOptimize(o);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(bytes);
  state.counters["nodes"] = static_cast<double>(t.nodes);
  state.counters["avg_bytes"] = benchmark::Counter(static_cast<double>(bytes) /
                                                   std::max<std::int64_t>(1, state.iterations()));
}

void compile(benchmark::State& state, const Target& t) {
  for (auto _ : state) benchmark::DoNotOptimize(ObjectGenerator::compile(t.crd, t.version));
}

void validate(benchmark::State& state, const Target& t) {
  auto g = std::get<ObjectGenerator>(ObjectGenerator::compile(t.crd, t.version));
  auto c =
      std::get<convcheck::ValidityChecker>(convcheck::ValidityChecker::compile(t.crd, t.version));
  const auto objects = convcheck::generateObjects(g, 1, 64);
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(c.check(objects[i++ % objects.size()]));
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

int main(int argc, char** argv) {
  static const std::vector<Target> targets = largestSchemas(10);
  for (const auto& t : targets) {
    const std::string name = t.crd.kind + "/" + t.version;
    benchmark::RegisterBenchmark(("generate/" + name).c_str(), [&t](benchmark::State& s) {
      generate(s, t);
    })->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("compile/" + name).c_str(), [&t](benchmark::State& s) {
      compile(s, t);
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("validate/" + name).c_str(), [&t](benchmark::State& s) {
      validate(s, t);
    })->Unit(benchmark::kMicrosecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
