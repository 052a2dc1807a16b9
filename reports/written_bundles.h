// What the bundle writer wrote for each problem (its directory and curl line), or nothing when no
// bundle was written. Made by reports/bundle_writer; read by every report that names bundles.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "reports/run_report.h"

namespace convcheck {

// One reproduction bundle as it was written.
struct BundleRef {
  std::string dir;   // as --report-dir was given (relative stays relative)
  std::string curl;  // re-sends the example's first request; "" when the example has none
};

class WrittenBundles {
 public:
  void add(const KindReport& kind, const Problem& problem, BundleRef bundle);
  // The bundle of `problem` of `kind`, or nullptr.
  const BundleRef* find(const KindReport& kind, const Problem& problem) const;
  std::size_t size() const { return byProblem_.size(); }

  std::vector<std::string> errors;  // bundles (or the run's crd.json) that could not be written

 private:
  std::map<std::pair<std::string, std::string>, BundleRef> byProblem_;  // (CRD, problem id)
};

}  // namespace convcheck
