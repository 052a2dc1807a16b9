// Collects property outcomes and latencies of one kind into its KindReport.
// Used by the runner only; the report it fills is read by reports/.
#pragma once

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "properties/checks/check_result.h"
#include "reports/run_report.h"

namespace convcheck {

class Tally {
 public:
  // `selected` empty = every property; `warningVersions` = versions neither served nor storage.
  Tally(std::vector<std::string> selected, std::set<std::string> warningVersions);

  bool wants(const std::string& property) const;
  void add(const CheckResult& result, const std::string& from, const std::string& to);
  void addAll(const std::vector<CheckResult>& results, const std::string& from,
              const std::string& to);
  void latency(const std::string& from, const std::string& to, std::size_t batchSize,
               double milliseconds);
  // Writes tallies (catalogue order, then from/to) and latency percentiles into `report`.
  void fill(KindReport& report) const;

 private:
  using Key = std::tuple<std::size_t, std::string, std::string>;  // catalogue index, from, to
  std::vector<std::string> selected_;
  std::set<std::string> warningVersions_;
  std::map<Key, PropertyTally> tallies_;
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<double>> latencies_;
};

std::string batchSizeBucket(std::size_t size);

}  // namespace convcheck
