#include "harness/run/tally.h"

#include <algorithm>
#include <cmath>

#include "properties/checks/property_ids.h"

namespace convcheck {

namespace {
constexpr std::size_t kFindingsKept = 3;

std::size_t catalogueIndex(const std::string& id) {
  const auto& cat = propertyCatalogue();
  for (std::size_t i = 0; i < cat.size(); ++i)
    if (cat[i].id == id) return i;
  return cat.size();
}

double percentile(std::vector<double> sorted, double p) {
  if (sorted.empty()) return 0;
  std::size_t rank = static_cast<std::size_t>(std::ceil(p * sorted.size()));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}
}  // namespace

std::string batchSizeBucket(std::size_t size) {
  if (size <= 1) return "1";
  if (size <= 8) return "2-8";
  if (size <= 32) return "9-32";
  if (size <= 128) return "33-128";
  return ">128";
}

Tally::Tally(std::vector<std::string> selected, std::set<std::string> warningVersions)
    : selected_(std::move(selected)), warningVersions_(std::move(warningVersions)) {}

bool Tally::wants(const std::string& property) const {
  return selected_.empty() ||
         std::find(selected_.begin(), selected_.end(), property) != selected_.end();
}

void Tally::add(const CheckResult& result, const std::string& from, const std::string& to) {
  if (!wants(result.property)) return;
  auto& t = tallies_[{catalogueIndex(result.property), from, to}];
  if (t.property.empty()) {
    t.property = result.property;
    t.from = from;
    t.to = to;
    t.warningOnly = warningVersions_.count(from) > 0 || warningVersions_.count(to) > 0;
  }
  switch (result.outcome) {
    case Outcome::Pass:
      ++t.passed;
      break;
    case Outcome::Fail:
      ++t.failed;
      if (result.finding && t.findings.size() < kFindingsKept)
        t.findings.push_back(*result.finding);
      break;
    case Outcome::Blocked:
      ++t.blocked;
      if (t.blockedBy.empty()) t.blockedBy = result.blockedBy;
      break;
  }
}

void Tally::addAll(const std::vector<CheckResult>& results, const std::string& from,
                   const std::string& to) {
  for (const auto& r : results) add(r, from, to);
}

void Tally::latency(const std::string& from, const std::string& to, std::size_t batchSize,
                    double milliseconds) {
  latencies_[{from, to, batchSizeBucket(batchSize)}].push_back(milliseconds);
}

void Tally::fill(KindReport& report) const {
  for (const auto& [key, tally] : tallies_) report.tallies.push_back(tally);
  for (const auto& [key, samples] : latencies_) {
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    LatencyStats s;
    std::tie(s.from, s.to, s.batchSizes) = key;
    s.samples = static_cast<int>(sorted.size());
    s.p50Ms = percentile(sorted, 0.50);
    s.p95Ms = percentile(sorted, 0.95);
    s.p99Ms = percentile(sorted, 0.99);
    s.maxMs = sorted.back();
    report.latency.push_back(s);
  }
}

}  // namespace convcheck
