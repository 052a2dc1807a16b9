// The coverage of one kind's run, collected from what its cases sent as the runner tallies each
// case (in plan order, on the runner's thread; no lock): the schema coverage of every case's input
// objects per version, and per version pair the cases, requests, objects and bytes. Shrinking's
// calls are not counted. Used by the runner; fills KindReport::coverage.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/run/kind_context.h"
#include "engine/run/schema_coverage.h"
#include "properties/case_executor.h"
#include "reports/run_report.h"

namespace convcheck {

class SentCoverage {
 public:
  // One SchemaCoverage per version of `kind` with a schema; `kind` must outlive the collector.
  explicit SentCoverage(const KindContext& kind);

  // A tallied case of the pair (from, to): its forward call's objects (the case's input, as sent:
  // defaults applied, cut to the batch cap) count for their own versions.
  void addCase(const std::string& from, const std::string& to, const CaseResult& result);

  void fill(KindReport& report) const;

 private:
  std::vector<std::string> order_;                 // versions in CRD order
  std::map<std::string, SchemaCoverage> schemas_;  // by version
  std::vector<PairCoverage> pairs_;                // in the order first tallied
};

}  // namespace convcheck
