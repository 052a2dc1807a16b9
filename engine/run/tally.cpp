#include "engine/run/tally.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "properties/checks/cause_analysis.h"
#include "properties/checks/problem_identity.h"
#include "properties/checks/property_registry.h"

namespace convcheck {

namespace {
constexpr std::size_t kCausesKept = 8;  // examples per (property, pair); the rest are counted

std::size_t catalogueIndex(const std::string& id) {
  const auto& cat = propertyRegistry();
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

Tally::Tally(std::vector<std::string> selected, ConversionReach reach)
    : selected_(std::move(selected)), reach_(std::move(reach)) {}

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
    t.warningReason = reach_.warningFor(from, to);
    t.warningOnly = !t.warningReason.empty();
  }
  for (const auto& a : result.acknowledged) {
    auto it =
        std::find_if(t.acknowledged.begin(), t.acknowledged.end(),
                     [&](const AcknowledgedTally& e) { return e.ack.cause.key == a.cause.key; });
    if (it == t.acknowledged.end()) {
      t.acknowledged.push_back({a, 0});
      it = std::prev(t.acknowledged.end());
    }
    ++it->cases;
  }
  switch (result.outcome) {
    case Outcome::Pass:
      ++t.passed;
      break;
    case Outcome::Fail: {
      ++t.failed;
      if (!result.finding) break;
      auto& entries = causes_[{catalogueIndex(result.property), from, to}];
      // Findings judged outside the case executor (tls) come without causes.
      const std::vector<Cause> causes = result.finding->causes.empty()
                                            ? causesOf(*result.finding, nullptr)
                                            : result.finding->causes;
      for (const auto& c : causes) {
        auto it = std::find_if(entries.begin(), entries.end(),
                               [&](const CauseEntry& e) { return e.cause.key == c.key; });
        if (it == entries.end()) {
          entries.push_back({c, 0, {}});
          keepExampleIfReported(entries, *result.finding);
          it = std::prev(entries.end());
        }
        ++it->cases;
      }
      addProblems({catalogueIndex(result.property), from, to}, *result.finding, causes);
      break;
    }
    case Outcome::Blocked:
      ++t.blocked;
      if (t.blockedBy.empty()) t.blockedBy = result.blockedBy;
      break;
  }
}

// Only the kCausesKept most severe causes of a (property, pair) are reported with their example
// (first seen first among equals, as fill() orders them), so only those keep one: a webhook with
// hundreds of distinct causes costs kCausesKept examples, not hundreds. A cause that falls out of
// the reported ones never comes back, since later causes only rank after or before it.
void Tally::keepExampleIfReported(std::vector<CauseEntry>& entries, const Finding& finding) {
  std::vector<std::size_t> order(entries.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return entries[a].cause.severity < entries[b].cause.severity;
  });
  const std::size_t added = entries.size() - 1;
  auto rank = std::find(order.begin(), order.end(), added) - order.begin();
  if (static_cast<std::size_t>(rank) >= kCausesKept) return;
  entries[added].example = finding;
  if (order.size() > kCausesKept) entries[order[kCausesKept]].example = Finding{};
}

bool Tally::knows(const std::string& property, const std::string& from, const std::string& to,
                  const std::vector<Cause>& causes) const {
  auto found = causes_.find({catalogueIndex(property), from, to});
  if (found == causes_.end()) return false;
  const auto& entries = found->second;
  return std::all_of(causes.begin(), causes.end(), [&](const Cause& c) {
    return std::any_of(entries.begin(), entries.end(),
                       [&](const CauseEntry& e) { return e.cause.key == c.key; });
  });
}

void Tally::setExample(const std::string& property, const std::string& from, const std::string& to,
                       const std::string& causeKey, Finding example) {
  auto found = causes_.find({catalogueIndex(property), from, to});
  if (found == causes_.end()) return;
  for (auto& e : found->second)
    if (e.cause.key == causeKey) {
      for (const auto& c : example.causes)  // the shrunk case's own words for the cause
        if (c.key == causeKey) e.cause = c;
      e.example = std::move(example);
    }
}

void Tally::addProblems(const Key& key, const Finding& finding, const std::vector<Cause>& causes) {
  std::vector<std::string> counted;  // a case counts once per problem, however many causes show it
  for (const auto& c : causes) {
    const std::string problem = c.problem.empty() ? problemOfCauseKey(c.key) : c.problem;
    if (std::find(counted.begin(), counted.end(), problem) != counted.end()) continue;
    counted.push_back(problem);
    auto [it, added] = problems_.try_emplace(problem);
    ProblemEntry& p = it->second;
    if (added) {
      p.cause = c;
      p.example = finding;
      p.found = problems_.size();
    } else if (c.severity < p.cause.severity) {
      p.cause = c;
    }
    ++p.sites[key];
  }
}

void Tally::setProblemExample(const std::string& problem, Finding example) {
  auto found = problems_.find(problem);
  if (found == problems_.end()) return;
  for (const auto& c : example.causes)  // the shrunk case's own words for the problem
    if ((c.problem.empty() ? problemOfCauseKey(c.key) : c.problem) == problem)
      found->second.cause.title = c.title;
  found->second.example = std::move(example);
}

// A problem's severity as the run saw it: a rejection that no case of its (property, pair)s
// escaped is the webhook failing every request, an outage.
void Tally::fillProblems(KindReport& report) {
  std::vector<std::pair<std::size_t, Problem>> ranked;  // first found, problem
  for (auto& [key, entry] : problems_) {
    Problem p;
    p.key = key;
    p.severity = entry.cause.severity;
    p.title = entry.cause.title;
    bool everyCaseFailed = true;
    p.warningOnly = true;
    for (const auto& [site, cases] : entry.sites) {
      const auto& [index, from, to] = site;
      ProblemSite s;
      s.property = index < propertyRegistry().size() ? propertyRegistry()[index].id : "";
      s.from = from;
      s.to = to;
      s.cases = cases;
      const std::string why = reach_.warningFor(from, to);
      s.warningOnly = !why.empty();
      if (!s.warningOnly) p.warningOnly = false;
      if (s.warningOnly && p.warningReason.empty()) p.warningReason = why;
      auto tally = tallies_.find(site);
      if (tally != tallies_.end() && tally->second.passed > 0) everyCaseFailed = false;
      p.cases += cases;
      p.sites.push_back(std::move(s));
    }
    if (!p.warningOnly) p.warningReason.clear();
    if (p.severity == Severity::Rejected && everyCaseFailed) p.severity = Severity::Outage;
    p.example = std::move(entry.example);
    p.example.cause = entry.cause;
    p.example.cases = p.cases;
    ranked.emplace_back(entry.found, std::move(p));
  }
  problems_.clear();
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    if (a.second.severity != b.second.severity) return a.second.severity < b.second.severity;
    if (a.second.cases != b.second.cases) return a.second.cases > b.second.cases;
    return a.first < b.first;
  });
  for (auto& [found, p] : ranked) {
    p.id = fmt::format("P{}", report.problems.size() + 1);
    report.problems.push_back(std::move(p));
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

void Tally::fill(KindReport& report) {
  fillProblems(report);
  for (const auto& [key, tally] : tallies_) {
    PropertyTally t = tally;
    auto found = causes_.find(key);
    if (found != causes_.end()) {
      std::vector<CauseEntry> entries = std::move(found->second);
      causes_.erase(found);
      std::stable_sort(entries.begin(), entries.end(),
                       [](const CauseEntry& a, const CauseEntry& b) {
                         return a.cause.severity < b.cause.severity;
                       });
      for (auto& e : entries) {
        if (t.findings.size() == kCausesKept) {
          ++t.moreCauses;
          continue;
        }
        Finding f = std::move(e.example);
        f.cause = e.cause;
        f.cases = e.cases;
        t.findings.push_back(std::move(f));
      }
    }
    report.tallies.push_back(std::move(t));
  }
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
