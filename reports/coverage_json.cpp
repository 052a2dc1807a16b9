#include "reports/coverage_json.h"

namespace convcheck {

using nlohmann::json;

nlohmann::json coverageToJson(const KindCoverage& coverage) {
  json versions = json::array();
  for (const auto& v : coverage.versions) {
    const CoverageCounts c = coverageCounts(v);
    json fields = json::array();
    for (const auto& p : v.paths) {
      json boundaries = json::array();
      for (const auto& b : p.boundaries)
        boundaries.push_back({{"kind", b.kind}, {"value", b.value}, {"hits", b.hits}});
      fields.push_back({{"path", p.path},
                        {"type", p.type},
                        {"required", p.required},
                        {"present", p.present},
                        {"absent", p.absent},
                        {"boundaries", boundaries}});
    }
    versions.push_back({{"version", v.version},
                        {"objects", v.objects},
                        {"paths", c.paths},
                        {"presentPaths", c.presentPaths},
                        {"optionalPaths", c.optionalPaths},
                        {"absentPaths", c.absentPaths},
                        {"boundaries", c.boundaries},
                        {"reachedBoundaries", c.reachedBoundaries},
                        {"fields", fields},
                        {"unexercised", unexercised(v)}});
  }
  json pairs = json::array();
  for (const auto& p : coverage.pairs)
    pairs.push_back({{"from", p.from},
                     {"to", p.to},
                     {"cases", p.cases},
                     {"requests", p.requests},
                     {"objects", p.objects},
                     {"bytes", p.bytes}});
  return {{"versions", versions}, {"pairs", pairs}};
}

}  // namespace convcheck
