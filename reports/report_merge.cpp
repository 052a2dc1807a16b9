#include "reports/report_merge.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "properties/checks/property_registry.h"

namespace convcheck {

namespace {

// The exit code of a run that was interrupted (the runner's kInterruptedExitCode).
constexpr int kInterrupted = 130;

using SiteKey = std::tuple<std::size_t, std::string, std::string>;  // property, from, to

std::size_t catalogueIndex(const std::string& id) {
  const auto& cat = propertyRegistry();
  for (std::size_t i = 0; i < cat.size(); ++i)
    if (cat[i].id == id) return i;
  return cat.size();
}

// Where a pair's cases run in the kind's run: each version in order as the source, with every
// other as the target; a site not tied to a pair (tls) is judged after the first case.
std::size_t runPosition(const KindReport& kind, const std::string& from, const std::string& to) {
  if (from.empty()) return 0;
  auto at = [&](const std::string& v) {
    return static_cast<std::size_t>(std::find(kind.versions.begin(), kind.versions.end(), v) -
                                    kind.versions.begin());
  };
  return 1 + at(from) * (kind.versions.size() + 1) + at(to);
}

void addOnce(std::vector<std::string>& to, const std::string& line) {
  if (!line.empty() && std::find(to.begin(), to.end(), line) == to.end()) to.push_back(line);
}

// One shard's view of a kind.
struct ShardKind {
  const KindReport* kind;
  const WrittenBundles* bundles;
};

void mergeTally(PropertyTally& into, const PropertyTally& t) {
  into.passed += t.passed;
  into.failed += t.failed;
  into.blocked += t.blocked;
  if (into.blockedBy.empty()) into.blockedBy = t.blockedBy;
  into.moreCauses += t.moreCauses;
  for (const auto& f : t.findings) {
    auto it = std::find_if(into.findings.begin(), into.findings.end(), [&](const Finding& e) {
      return e.cause && f.cause && e.cause->key == f.cause->key;
    });
    if (it == into.findings.end())
      into.findings.push_back(f);
    else
      it->cases += f.cases;
  }
  for (const auto& a : t.acknowledged) {
    auto it = std::find_if(
        into.acknowledged.begin(), into.acknowledged.end(),
        [&](const AcknowledgedTally& e) { return e.ack.cause.key == a.ack.cause.key; });
    if (it == into.acknowledged.end())
      into.acknowledged.push_back(a);
    else
      it->cases += a.cases;
  }
}

// The (property, pair)s of every shard: a pair's counts are added (its cases ran in one shard, its
// stored cases perhaps in another); a site not tied to a pair (tls) is judged by every shard
// that ran the kind, on the same endpoint, so the first shard's counts stand.
std::vector<PropertyTally> mergeTallies(const std::vector<ShardKind>& shards) {
  std::map<SiteKey, PropertyTally> merged;
  for (const auto& s : shards)
    for (const auto& t : s.kind->tallies) {
      auto [it, added] = merged.try_emplace({catalogueIndex(t.property), t.from, t.to}, t);
      if (!added && !t.from.empty()) mergeTally(it->second, t);
    }
  std::vector<PropertyTally> out;
  for (auto& [key, t] : merged) {
    std::stable_sort(t.findings.begin(), t.findings.end(), [](const Finding& a, const Finding& b) {
      return a.cause->severity < b.cause->severity;
    });
    out.push_back(std::move(t));
  }
  return out;
}

// One problem as one shard reported it.
struct ProblemPart {
  const Problem* problem;
  const ShardKind* shard;
  std::size_t firstSeen;  // the run position of its earliest site
  std::size_t rank;       // its place in its shard's list
};

// A problem of several shards: its sites joined, its cases added, its severity as the whole run
// saw it, and the example (with its title) of `first`, the part the run met first.
Problem mergeProblem(const std::vector<ProblemPart>& parts, const ProblemPart& first) {
  Problem p;
  p.key = first.problem->key;
  p.title = first.problem->title;
  p.example = first.problem->example;
  // The other symptoms of the defect, as any shard saw them (the key of one may be a symptom of
  // another's).
  for (const auto& part : parts) {
    std::vector<std::pair<std::string, std::string>> seen = {
        {part.problem->key, part.problem->title}};
    for (std::size_t i = 0; i < part.problem->symptomKeys.size(); ++i)
      seen.emplace_back(part.problem->symptomKeys[i], i < part.problem->symptoms.size()
                                                          ? part.problem->symptoms[i]
                                                          : part.problem->symptomKeys[i]);
    for (const auto& [key, title] : seen) {
      if (key == p.key ||
          std::find(p.symptomKeys.begin(), p.symptomKeys.end(), key) != p.symptomKeys.end())
        continue;
      p.symptomKeys.push_back(key);
      p.symptoms.push_back(title);
    }
  }
  // A rejection is an outage when no case of any of its pairs escaped it: when one shard saw a
  // case escape, the whole run did.
  const bool someEscaped = std::any_of(parts.begin(), parts.end(), [](const ProblemPart& part) {
    return part.problem->severity == Severity::Rejected;
  });
  p.severity = Severity::Cosmetic;
  std::map<SiteKey, ProblemSite> sites;
  for (const auto& part : parts) {
    Severity s = part.problem->severity;
    if (s == Severity::Outage && someEscaped) s = Severity::Rejected;
    p.severity = std::min(p.severity, s);
    for (const auto& site : part.problem->sites) {
      auto [it, added] =
          sites.try_emplace({catalogueIndex(site.property), site.from, site.to}, site);
      if (added) continue;
      if (site.from.empty())
        it->second.cases = std::max(it->second.cases, site.cases);
      else
        it->second.cases += site.cases;
    }
  }
  p.warningOnly = true;
  for (auto& [key, site] : sites) {
    p.cases += site.cases;
    p.warningOnly = p.warningOnly && site.warningOnly;
    p.sites.push_back(std::move(site));
  }
  if (p.warningOnly)
    for (const auto& part : parts)
      if (p.warningReason.empty()) p.warningReason = part.problem->warningReason;
  p.example.cases = p.cases;
  return p;
}

// The problems of every shard joined by identity, ranked as the runner ranks them: most severe
// first, then most cases, then first met.
void mergeProblems(const std::vector<ShardKind>& shards, KindReport& kind,
                   WrittenBundles& bundles) {
  // A problem's identities are its key and its symptoms' keys: problems of different shards
  // that share one are one defect (a shard may have folded what another saw apart).
  std::map<std::string, std::string> parent;  // union-find over identities
  auto root = [&](std::string key) {
    if (!parent.count(key)) parent[key] = key;
    while (parent[key] != key) key = parent[key] = parent[parent[key]];
    return key;
  };
  for (const auto& s : shards)
    for (const auto& p : s.kind->problems)
      for (const auto& other : p.symptomKeys) {
        const std::string a = root(p.key), b = root(other);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
      }
  std::map<std::string, std::vector<ProblemPart>> byKey;
  std::vector<std::string> keys;  // in the order first read
  for (const auto& s : shards)
    for (std::size_t i = 0; i < s.kind->problems.size(); ++i) {
      const Problem& p = s.kind->problems[i];
      std::size_t firstSeen = std::string::npos;
      for (const auto& site : p.sites)
        firstSeen = std::min(firstSeen, runPosition(*s.kind, site.from, site.to));
      const std::string identity = root(p.key);
      if (!byKey.count(identity)) keys.push_back(identity);
      byKey[identity].push_back({&p, &s, firstSeen, i});
    }
  struct Ranked {
    Problem problem;
    std::size_t firstSeen, rank;
    const ProblemPart* from;
  };
  std::vector<Ranked> ranked;
  for (const auto& key : keys) {
    const auto& parts = byKey[key];
    const ProblemPart* first = &*std::min_element(
        parts.begin(), parts.end(), [](const ProblemPart& a, const ProblemPart& b) {
          return std::tie(a.firstSeen, a.rank) < std::tie(b.firstSeen, b.rank);
        });
    ranked.push_back({mergeProblem(parts, *first), first->firstSeen, first->rank, first});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    if (a.problem.severity != b.problem.severity) return a.problem.severity < b.problem.severity;
    if (a.problem.cases != b.problem.cases) return a.problem.cases > b.problem.cases;
    return std::tie(a.firstSeen, a.rank) < std::tie(b.firstSeen, b.rank);
  });
  for (auto& r : ranked) {
    r.problem.id = fmt::format("P{}", kind.problems.size() + 1);
    kind.problems.push_back(std::move(r.problem));
    if (const BundleRef* b = r.from->shard->bundles->find(*r.from->shard->kind, *r.from->problem))
      bundles.add(kind, kind.problems.back(), *b);
  }
}

KindReport mergeKind(const std::vector<ShardKind>& shards, WrittenBundles& bundles) {
  KindReport kind = *shards.front().kind;  // the header: the same CRD and webhook in every shard
  kind.tallies = mergeTallies(shards);
  kind.problems.clear();
  kind.latency.clear();
  kind.notes.clear();
  kind.requests = kind.objectsSent = 0;
  kind.seconds = 0;
  std::map<std::tuple<std::string, std::string, std::string>, LatencyStats> latency;
  for (const auto& s : shards) {
    for (const auto& n : s.kind->notes) addOnce(kind.notes, n);
    kind.requests += s.kind->requests;
    kind.objectsSent += s.kind->objectsSent;
    kind.seconds += s.kind->seconds;
    for (const auto& l : s.kind->latency) {
      auto [it, added] = latency.try_emplace({l.from, l.to, l.batchSizes}, l);
      if (added) continue;
      // Stored cases of a pair may have run in another shard than its generated ones: the
      // percentiles of the two cannot be joined, the larger of each is kept.
      LatencyStats& into = it->second;
      into.samples += l.samples;
      into.p50Ms = std::max(into.p50Ms, l.p50Ms);
      into.p95Ms = std::max(into.p95Ms, l.p95Ms);
      into.p99Ms = std::max(into.p99Ms, l.p99Ms);
      into.maxMs = std::max(into.maxMs, l.maxMs);
    }
  }
  for (auto& [key, l] : latency) kind.latency.push_back(std::move(l));
  mergeProblems(shards, kind, bundles);
  return kind;
}

// What keeps `shards` from being the shards of one run, in words; empty when they are.
std::vector<std::string> shardErrors(const std::vector<const ResultsFile*>& shards) {
  std::vector<std::string> errors;
  const ResultsFile& first = *shards.front();
  const int count = first.report.shardCount;
  std::vector<std::vector<std::string>> paths(static_cast<std::size_t>(count));
  for (const ResultsFile* s : shards) {
    if (s->report.seed != first.report.seed)
      errors.push_back(fmt::format("{} is of seed {} and {} of seed {}: not shards of one run",
                                   s->path, s->report.seed, first.path, first.report.seed));
    else if (s->report.shardCount != count)
      errors.push_back(fmt::format("{} is shard {}/{} and {} shard {}/{}: not shards of one run",
                                   s->path, s->report.shardIndex + 1, s->report.shardCount,
                                   first.path, first.report.shardIndex + 1, count));
    else
      paths[static_cast<std::size_t>(s->report.shardIndex)].push_back(s->path);
  }
  for (int i = 0; i < count; ++i) {
    const auto& given = paths[static_cast<std::size_t>(i)];
    if (given.empty())
      errors.push_back(
          fmt::format("shard {}/{} is missing: the verdict leaves its version pairs "
                      "out",
                      i + 1, count));
    else if (given.size() > 1)
      errors.push_back(fmt::format("shard {}/{} is given {} times ({}); the first is merged", i + 1,
                                   count, given.size(), fmt::join(given, ", ")));
  }
  return errors;
}

}  // namespace

std::string withoutShardOption(const std::string& command) {
  std::istringstream words(command);
  std::string word, out;
  bool skipNext = false;
  while (words >> word) {
    if (skipNext) {
      skipNext = false;
      continue;
    }
    if (word == "--shard") {
      skipNext = true;
      continue;
    }
    if (word.rfind("--shard=", 0) == 0) continue;
    out += (out.empty() ? "" : " ") + word;
  }
  return out;
}

MergedReport mergeShardReports(const std::vector<ResultsFile>& files) {
  MergedReport out;
  RunReport& r = out.report;
  if (files.empty()) {
    r.fatalError = "no shard reports to merge";
    r.exitCode = 2;
    return out;
  }
  std::vector<const ResultsFile*> shards;
  for (const auto& f : files) shards.push_back(&f);
  std::stable_sort(shards.begin(), shards.end(), [](const ResultsFile* a, const ResultsFile* b) {
    return a->report.shardIndex < b->report.shardIndex;
  });
  const std::vector<std::string> errors = shardErrors(shards);
  const RunReport& first = shards.front()->report;
  r.version = first.version;
  r.seed = first.seed;
  r.command = withoutShardOption(first.command);
  r.rawObjects = first.rawObjects;
  r.canonicalDateTimes = first.canonicalDateTimes;
  std::vector<std::string> fatal = errors;
  std::map<std::string, std::vector<ShardKind>> kinds;
  std::vector<std::pair<int, std::string>> kindOrder;  // the run's order, CRD name
  std::set<int> merged;                                // shard indexes merged (each once)
  bool anyTested = false, inputError = !errors.empty();
  for (const ResultsFile* s : shards) {
    const RunReport& shard = s->report;
    if (shard.seed != first.seed || shard.shardCount != first.shardCount ||
        !merged.insert(shard.shardIndex).second)
      continue;
    if (r.startedAt.empty() || (!shard.startedAt.empty() && shard.startedAt < r.startedAt))
      r.startedAt = shard.startedAt;
    r.seconds = std::max(r.seconds, shard.seconds);
    r.interrupted = r.interrupted || shard.interrupted;
    for (const auto& w : shard.warnings) addOnce(r.warnings, w);
    std::istringstream lines(shard.fatalError);
    for (std::string line; std::getline(lines, line);) addOnce(fatal, line);
    inputError = inputError || shard.exitCode == 2;
    anyTested = anyTested || ((shard.exitCode == 0 || shard.exitCode == 1) && !shard.kinds.empty());
    for (const auto& k : shard.kinds) {
      if (!kinds.count(k.crdName)) kindOrder.emplace_back(k.order, k.crdName);
      kinds[k.crdName].push_back({&k, &s->bundles});
    }
  }
  std::stable_sort(kindOrder.begin(), kindOrder.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [order, name] : kindOrder)
    r.kinds.push_back(mergeKind(kinds[name], out.bundles));
  for (const auto& line : fatal) r.fatalError += (r.fatalError.empty() ? "" : "\n") + line;
  r.exitCode = inputError      ? 2
               : r.interrupted ? kInterrupted
               : !anyTested    ? 3
                               : (r.failedProperties() > 0 ? 1 : 0);
  return out;
}

}  // namespace convcheck
