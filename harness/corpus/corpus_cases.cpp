#include "harness/corpus/corpus_cases.h"
#include "kube/apiserver/group_version.h"

#include <algorithm>

#include <fmt/format.h>

namespace convcheck {

using nlohmann::json;

namespace {

std::uint64_t hashText(const std::string& s, std::uint64_t seed) {
  std::uint64_t h = 14695981039346656037ull ^ seed;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

CorpusPlan planCorpusCases(const CorpusContents& contents, const Crd& crd,
                           const std::vector<std::string>& versions,
                           const std::map<std::string, ObjectGenerator>& generators,
                           const std::map<std::string, ValidityChecker>& checkers,
                           std::uint64_t seed, int variantsPerSample) {
  CorpusPlan plan;
  plan.notes = contents.notes;
  auto tested = [&](const std::string& v) {
    return std::find(versions.begin(), versions.end(), v) != versions.end();
  };
  for (const auto& stored : contents.regressions) {
    const RegressionCase& c = stored.regression;
    std::string problem;
    if (!tested(c.caseTo)) problem = fmt::format("version {} is not tested", c.caseTo);
    for (const auto& o : c.objects) {
      const std::string v = objectVersion(o);
      if (problem.empty() && !tested(v)) problem = fmt::format("version {} is not tested", v);
      if (problem.empty() && v == c.caseTo)
        problem = fmt::format("an object is already in the desired version {}", v);
    }
    if (!problem.empty()) {
      plan.notes.push_back(fmt::format("corpus {}: {}; skipped", stored.file, problem));
      continue;
    }
    plan.cases.push_back({"corpus " + stored.file, c.objects, c.caseTo, c.seed});
  }

  struct ReadySample {
    const StoredSample* stored;
    json object;
    std::uint64_t seed;
  };
  std::vector<ReadySample> ready;
  for (const auto& s : contents.samples) {
    if (!tested(s.version)) {
      plan.notes.push_back(fmt::format("sample {}: version {} is not a tested version; skipped",
                                       s.where, s.version));
      continue;
    }
    const std::uint64_t sampleSeed = hashText(s.where, seed);
    json object = asStoredObject(s.object, crd, sampleSeed);
    object["kind"] = crd.kind;
    auto checker = checkers.find(s.version);
    if (checker != checkers.end()) {
      auto violations = checker->second.check(object);
      if (!violations.empty()) {
        std::string first;
        for (std::size_t i = 0; i < violations.size() && i < 3; ++i)
          first += fmt::format("{}{}: {}", i ? "; " : "",
                               violations[i].path.empty() ? "(root)" : violations[i].path,
                               violations[i].message);
        plan.notes.push_back(fmt::format(
            "sample {}: not valid for version {} ({}); kube-apiserver would not store it; skipped",
            s.where, s.version, first));
        continue;
      }
    }
    ready.push_back({&s, std::move(object), sampleSeed});
  }
  // Samples as they are first, then the variants that start from them.
  for (const auto& r : ready)
    for (const auto& to : versions)
      if (to != r.stored->version)
        plan.cases.push_back({"sample " + r.stored->where, {r.object}, to, hashText(to, r.seed)});
  for (const auto& r : ready) {
    auto gen = generators.find(r.stored->version);
    auto checker = checkers.find(r.stored->version);
    if (gen == generators.end() || checker == checkers.end()) continue;
    for (const auto& to : versions) {
      if (to == r.stored->version) continue;
      const std::uint64_t variantSeed = hashText("variants " + to, r.seed);
      auto variants =
          sampleVariants(r.object, gen->second, checker->second, variantSeed, variantsPerSample);
      for (std::size_t k = 0; k < variants.size(); ++k)
        plan.cases.push_back({fmt::format("sample {} (variant {})", r.stored->where, k + 1),
                              {variants[k]},
                              to,
                              hashText(std::to_string(k), variantSeed)});
    }
  }
  return plan;
}

}  // namespace convcheck
