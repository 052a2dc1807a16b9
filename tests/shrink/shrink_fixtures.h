// Shared by the shrink tests: the example CRDs compiled into KindContexts, and CaseRunners that
// judge a batch with a plain predicate instead of a webhook (the algorithms under test do not
// care where a verdict comes from; the integration tests use the real webhook).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/run/kind_context.h"
#include "kube/crd/crd.h"
#include "shrink/case_shrinker.h"

namespace convcheck::testing {

const KindContext& cronTab();  // examples/crds/crontabs.stable.example.com.yaml
const KindContext& widget();   // examples/crds/widgets.example.convcheck.dev.yaml

// A valid generated object of `version` (seed, size 60).
nlohmann::json generated(const KindContext& kind, const std::string& version, std::uint64_t seed);
rc::Shrinkable<nlohmann::json> generatedTree(const KindContext& kind, const std::string& version,
                                             std::uint64_t seed, int size = 60);

// A CaseRunner whose forward result for `property` fails when `fails(batch)`; every call counts
// one exchange, and every batch it sees is recorded in `seen`.
struct PredicateRunner {
  std::string property = "order";
  std::function<bool(const std::vector<nlohmann::json>&)> fails;
  std::vector<std::vector<nlohmann::json>> seen = {};
  CaseRunner runner();
};

CheckResult failing(const std::string& property, const std::vector<nlohmann::json>& batch);

}  // namespace convcheck::testing
