// `convcheck generate`: prints valid objects of one CRD version. Listed in command_table.cpp.
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "app/cli/shared_options.h"
#include "engine/run/crd_selection.h"
#include "engine/run/crd_source.h"
#include "generators/generate_command.h"
#include "kube/crd/crd_loader.h"

namespace convcheck {
namespace {

struct GenerateFlags {
  std::string crd, version, format = "json", kind, dateTimes = "canonical";
  int count = 10;
  std::uint64_t seed = 1;
  ClusterAccess cluster;  // --kubeconfig, --context
};

int executeGenerate(const GenerateFlags& g, std::istream& in, std::ostream& out,
                    std::ostream& err) {
  LoadResult loaded = loadCrdSource(g.crd, in, g.cluster);
  for (const auto& e : loaded.errors) err << "convcheck: " << e.text() << "\n";
  if (!loaded.errors.empty()) return 2;
  auto chosen = chooseCrd(loaded.crds, g.kind, g.crd);
  if (auto* error = std::get_if<std::string>(&chosen)) return usageError(err, *error);
  const Crd* crd = std::get<const Crd*>(chosen);
  GenerateRequest request{g.version, g.count, g.seed, *parseGenerateFormat(g.format),
                          g.dateTimes == "canonical"};
  if (auto error = runGenerate(*crd, request, out, &err)) return usageError(err, *error);
  return 0;
}

// Declares the options on `sub`; the returned action reads what they receive.
Execute declareGenerateOptions(CLI::App& sub) {
  auto g = std::make_shared<GenerateFlags>();
  declareCrdOption(sub, g->crd);
  declareClusterOptions(sub, g->cluster);
  sub.add_option("--version", g->version, "Version to generate, e.g. v1")->required();
  sub.add_option("-n", g->count, "Number of objects")
      ->default_val(10)
      ->check(CLI::Range(0, 10000000));
  declareSeedOption(sub, g->seed, "Random seed")->default_val(1);
  sub.add_option("-o,--output", g->format, "json (one object per line) or yaml (a stream)")
      ->default_val("json")
      ->check(CLI::IsMember({"json", "yaml"}));
  declareKindOption(sub, g->kind);
  declareDateTimesOption(sub, g->dateTimes);
  return [g](const CommandContext& c) { return executeGenerate(*g, c.in, c.out, c.err); };
}

}  // namespace

Command generateCommand() {
  return {"generate", "Print valid objects of one CRD version", declareGenerateOptions};
}

}  // namespace convcheck
