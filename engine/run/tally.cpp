#include "engine/run/tally.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/run/shrunk_case.h"
#include "engine/run/sibling_evidence.h"
#include "engine/run/zero_value_probe.h"
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
    ++p.losses;
    if (c.lostZero) ++p.zeroLosses;
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

void Tally::setProblemWitness(const std::string& problem, std::vector<std::string> shows) {
  auto found = problems_.find(problem);
  if (found == problems_.end()) return;
  std::sort(shows.begin(), shows.end());
  shows.erase(std::unique(shows.begin(), shows.end()), shows.end());
  found->second.witnessed = std::move(shows);
}

// A problem the probe showed loses only zeros, or, where nothing could be probed (an edit's
// zero, not the case's), that lost nothing but zeros in at least kZeroEvidence sightings.
bool Tally::losesOnlyZeros(const ProblemEntry& entry) {
  constexpr int kZeroEvidence = 3;
  auto has = [&](const char* mark) {
    return std::find(entry.witnessed.begin(), entry.witnessed.end(), mark) != entry.witnessed.end();
  };
  if (has(kDropsZeroValues)) return true;
  return !has(kLosesAnyValue) && entry.losses >= kZeroEvidence && entry.zeroLosses == entry.losses;
}

std::vector<std::vector<std::string>> Tally::defects() const {
  std::map<std::string, std::string> parent;  // union-find over problem keys
  for (const auto& [key, entry] : problems_) parent[key] = key;
  auto root = [&](std::string key) {
    while (parent[key] != key) key = parent[key] = parent[parent[key]];
    return key;
  };
  auto shows = [&](const ProblemEntry& entry, const std::string& other) {
    return std::binary_search(entry.witnessed.begin(), entry.witnessed.end(), other);
  };
  // Pairs of problems a failure shows lost by different code: never in one group.
  std::set<std::pair<std::string, std::string>> apart;
  auto join = [&](const std::string& x, const std::string& y) {
    const std::string a = root(x), b = root(y);
    if (a == b) return;
    for (const auto& [p, q] : apart)
      if ((root(p) == a && root(q) == b) || (root(p) == b && root(q) == a)) return;
    parent[std::max(a, b)] = std::min(a, b);
  };
  std::string zeroValues;  // the first problem that loses only zero values
  for (const auto& [key, entry] : problems_) {
    // One `if (value)` pattern: every field it drops is one defect.
    if (losesOnlyZeros(entry)) {
      if (zeroValues.empty()) zeroValues = key;
      join(zeroValues, key);
    }
    for (const auto& other : entry.witnessed) {
      auto it = problems_.find(other);
      if (other == key || it == problems_.end() || !shows(it->second, key)) continue;
      // A cosmetic symptom (an annotation the webhook stamps on every object) meets every
      // defect's minimal case and is met by them: it is never another defect's side.
      if ((entry.cause.severity == Severity::Cosmetic) !=
          (it->second.cause.severity == Severity::Cosmetic))
        continue;
      join(key, other);
    }
  }
  joinSameShrunkCases(join);
  joinOutputsWithTheirRoundTrips(join);
  foldSiblings(join, apart);
  std::map<std::string, std::vector<std::string>> groups;
  for (const auto& [key, entry] : problems_) groups[root(key)].push_back(key);
  std::vector<std::vector<std::string>> out;
  for (auto& [top, keys] : groups) {
    std::stable_sort(keys.begin(), keys.end(), [&](const std::string& a, const std::string& b) {
      const ProblemEntry& x = problems_.at(a);
      const ProblemEntry& y = problems_.at(b);
      if (x.cause.severity != y.cause.severity) return x.cause.severity < y.cause.severity;
      return x.found < y.found;
    });
    out.push_back(std::move(keys));
  }
  return out;
}

namespace {

// The keys of a normalised path ("spec.routes[*].host" -> spec, routes, host).
std::vector<std::string> pathKeys(const std::string& path) {
  std::vector<std::string> keys;
  for (const auto& step : pathSteps(path))
    if (!step.isIndex && step.key != "*") keys.push_back(step.key);
  return keys;
}

// How many leading keys two paths share.
std::size_t sharedKeys(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

}  // namespace

void Tally::joinSameShrunkCases(
    const std::function<void(const std::string&, const std::string&)>& join) const {
  std::map<std::string, std::vector<std::string>> ofCase;  // shrunk case -> its problems
  for (const auto& [key, entry] : problems_)
    if (std::string identity = shrunkCaseIdentity(entry.example); !identity.empty())
      ofCase[std::move(identity)].push_back(key);
  auto nested = [](const std::string& x, const std::string& y) {
    const std::vector<std::string> a = pathKeys(x), b = pathKeys(y);
    return !a.empty() && !b.empty() && sharedKeys(a, b) == std::min(a.size(), b.size());
  };
  for (const auto& [identity, keys] : ofCase)
    for (std::size_t i = 0; i < keys.size(); ++i)
      for (std::size_t j = i + 1; j < keys.size(); ++j) {
        const ProblemEntry& a = problems_.at(keys[i]);
        const ProblemEntry& b = problems_.at(keys[j]);
        if ((a.cause.severity == Severity::Cosmetic) != (b.cause.severity == Severity::Cosmetic))
          continue;
        // An edit is content the shrinker cannot take away, and one edit may meet several
        // defects: only an item and what is inside it are one there.
        const Property* property = findProperty(a.example.property);
        if ((property == nullptr || property->drawsOwnContent) &&
            !nested(a.cause.path, b.cause.path))
          continue;
        join(keys[i], keys[j]);
      }
}

void Tally::joinOutputsWithTheirRoundTrips(
    const std::function<void(const std::string&, const std::string&)>& join) const {
  const std::size_t roundTrip = catalogueIndex("round-trip");
  auto pathOf = [](const std::string& key) { return key.substr(key.find('|') + 1); };
  for (const auto& [written, output] : problems_) {
    // An invalid output comes back on the trips from V (their back leg); a pruned field is lost
    // on the trips to V (their forward leg).
    const bool invalid = written.rfind("invalid|", 0) == 0;
    if (!invalid && written.rfind("pruned|", 0) != 0) continue;
    for (const auto& candidate : problems_) {
      const std::string& lost = candidate.first;
      const ProblemEntry& field = candidate.second;  // not a binding: the lambda below reads it
      if (lost.rfind("field|", 0) != 0 || pathOf(lost) != pathOf(written)) continue;
      const bool everyOutputComesBack =
          std::all_of(output.sites.begin(), output.sites.end(), [&](const auto& site) {
            const auto& [index, from, to] = site.first;
            return field.sites.count(invalid ? Key{roundTrip, to, from}
                                             : Key{roundTrip, from, to}) != 0;
          });
      if (everyOutputComesBack) join(written, lost);
    }
  }
}

std::vector<const Finding*> Tally::keptFindings() const {
  std::vector<const Finding*> kept;
  for (const auto& [key, entry] : problems_) kept.push_back(&entry.example);
  for (const auto& [site, entries] : causes_)
    for (const auto& e : entries)
      if (!e.example.property.empty()) kept.push_back(&e.example);
  return kept;
}

// Fields of one parent below the top level (spec.routes[*].host and spec.routes[*].port; for
// spec.a and spec.b see below) that go wrong the same way (same kind of identity, same severity) on
// the same version pairs (the pairs of one within the other's, at least half as many) are one
// defect: a flattening that drops four fields of every item, a stash that loses a whole map.
// Unless a kept failure shows one lost where the other was kept in the same item: then they
// are two (a flattening that drops the backend, a rename that loses apiType, in one list item).
void Tally::foldSiblings(const std::function<void(const std::string&, const std::string&)>& join,
                         std::set<std::pair<std::string, std::string>>& apart) const {
  constexpr std::size_t kParentDepth = 2;
  struct Field {
    const std::string* key;
    std::string kind;
    std::vector<std::string> keys;
    std::set<std::pair<std::string, std::string>> pairs;
    Severity severity;
    std::set<Key> sites = {};
  };
  std::vector<Field> fields, topFields;
  for (const auto& [key, entry] : problems_) {
    if (entry.cause.path.empty()) continue;
    Field f{
        &key, key.substr(0, key.find('|')), pathKeys(entry.cause.path), {}, entry.cause.severity};
    // Schema fields only: each label or annotation is its own (a stamp and a leaked stash are two
    // defects, even on the same pairs). Top-level fields get the stricter rule below.
    if (f.keys.size() < kParentDepth || f.keys.front() == "metadata") continue;
    // A field lost only as "", 0 or false is the zero-value defect's (folded by its own rule),
    // not a sibling of fields lost whatever their value.
    if (losesOnlyZeros(entry)) continue;
    for (const auto& [site, cases] : entry.sites) {
      f.pairs.emplace(std::get<1>(site), std::get<2>(site));
      f.sites.insert(site);
    }
    (f.keys.size() == kParentDepth ? topFields : fields).push_back(std::move(f));
  }
  auto within = [](const auto& small, const auto& large) {
    return small.size() * 2 >= large.size() &&
           std::includes(large.begin(), large.end(), small.begin(), small.end());
  };
  const std::vector<const Finding*> kept = keptFindings();
  auto lostApartIn = [&kept](const std::string& x, const std::string& y) {
    return std::any_of(kept.begin(), kept.end(), [&](const Finding* f) {
      return lostApart(f->expected, f->got, x, y) || lostApart(f->expected, f->got, y, x);
    });
  };
  auto lostTogetherIn = [&kept](const std::string& x, const std::string& y) {
    return std::any_of(kept.begin(), kept.end(),
                       [&](const Finding* f) { return lostTogether(f->expected, f->got, x, y); });
  };
  // The closest likenesses join first, so that evidence against a looser one can still stop it:
  // fields a kept failure lost together from one item, then fields failing on exactly the same
  // pairs, then on pairs within the other's, then a field and one inside it (a whole backend
  // lost, and its host lost from a backend kept).
  struct Join {
    int rank;
    const std::string *a, *b;
  };
  std::vector<Join> joins;
  for (std::size_t i = 0; i < fields.size(); ++i)
    for (std::size_t j = i + 1; j < fields.size(); ++j) {
      const Field& a = fields[i];
      const Field& b = fields[j];
      if (a.kind != b.kind || a.severity != b.severity || sharedKeys(a.keys, b.keys) < kParentDepth)
        continue;
      if (!within(a.pairs, b.pairs) && !within(b.pairs, a.pairs)) continue;
      const std::string& pathA = problems_.at(*a.key).cause.path;
      const std::string& pathB = problems_.at(*b.key).cause.path;
      if (lostApartIn(pathA, pathB)) {
        apart.emplace(*a.key, *b.key);
        continue;
      }
      const std::size_t shared = sharedKeys(a.keys, b.keys);
      const bool nested = shared == a.keys.size() || shared == b.keys.size();
      const int rank = nested ? 3 : lostTogetherIn(pathA, pathB) ? 0 : a.pairs == b.pairs ? 1 : 2;
      joins.push_back({rank, a.key, b.key});
    }
  // Top-level fields (spec.port, spec.hostname) share the whole object: only fields that fail
  // exactly alike (every property on every pair) and that a kept failure lost together.
  for (std::size_t i = 0; i < topFields.size(); ++i)
    for (std::size_t j = i + 1; j < topFields.size(); ++j) {
      const Field& a = topFields[i];
      const Field& b = topFields[j];
      if (a.kind != b.kind || a.severity != b.severity || a.sites != b.sites ||
          a.keys.front() != b.keys.front())
        continue;
      const std::string& pathA = problems_.at(*a.key).cause.path;
      const std::string& pathB = problems_.at(*b.key).cause.path;
      if (lostApartIn(pathA, pathB))
        apart.emplace(*a.key, *b.key);
      else if (lostTogetherIn(pathA, pathB))
        joins.push_back({0, a.key, b.key});
    }
  std::stable_sort(joins.begin(), joins.end(),
                   [](const Join& x, const Join& y) { return x.rank < y.rank; });
  for (const auto& j : joins) join(*j.a, *j.b);
}

// Folds each defect's problems (defects()) into its first: sites are joined (a case that shows
// two symptoms at one site counts once: the larger count of the two is kept).
void Tally::foldDefects() {
  for (const auto& keys : defects()) {
    if (keys.size() < 2) continue;
    ProblemEntry& into = problems_.at(keys.front());
    std::vector<std::string> zeroPaths;
    for (const auto& key : keys) {
      const ProblemEntry& e = problems_.at(key);
      if (losesOnlyZeros(e) && !e.cause.path.empty()) zeroPaths.push_back(e.cause.path);
    }
    if (zeroPaths.size() > 1)
      into.cause.title = fmt::format(
          "empty strings, zeros and false are lost: the webhook takes them for absent ({})",
          fmt::join(zeroPaths, ", "));
    for (std::size_t i = 1; i < keys.size(); ++i) {
      auto it = problems_.find(keys[i]);
      ProblemEntry& from = it->second;
      for (const auto& [site, cases] : from.sites)
        into.sites[site] = std::max(into.sites[site], cases);
      into.found = std::min(into.found, from.found);
      into.symptomKeys.push_back(keys[i]);
      into.symptoms.push_back(from.cause.title);
      problems_.erase(it);
    }
  }
}

// A problem's severity as the run saw it: a rejection that no case of its (property, pair)s
// escaped is the webhook failing every request, an outage.
void Tally::fillProblems(KindReport& report) {
  foldDefects();
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
    p.symptomKeys = std::move(entry.symptomKeys);
    p.symptoms = std::move(entry.symptoms);
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
