// The `convcheck fuzz` engine without a webhook: libFuzzer, the case decoding and the
// schema-level mutator over a CRD's kind, each case's input shapes as feedback, no call made.
// bench/fuzz_coverage.sh compares its execs/s with fuzz against the example webhook.
// Usage: fuzz_decode_loop CRD SECONDS [SEED]
#include <iostream>
#include <sstream>
#include <string>

#include "engine/fuzz/fuzz_engine.h"
#include "kube/crd/crd_loader.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: fuzz_decode_loop CRD SECONDS [SEED]\n";
    return 2;
  }
  std::istringstream noStdin;
  convcheck::LoadResult loaded = convcheck::loadCrdInput(argv[1], noStdin);
  if (!loaded.errors.empty() || loaded.crds.empty()) {
    for (const auto& e : loaded.errors) std::cerr << e.text() << "\n";
    return 2;
  }
  convcheck::FuzzConfig config;
  config.target.url = "https://127.0.0.1:1/convert";  // never called
  config.maxTotalTime = std::stoi(argv[2]);
  config.run.seed = argc > 3 ? std::stoull(argv[3]) : 1;
  config.run.maxBatchSize = 8;
  config.withoutWebhook = true;
  return convcheck::runFuzz(loaded.crds.front(), config).exitCode;
}
