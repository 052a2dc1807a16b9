#include "reports/problem_list.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "kube/go/utf8.h"

namespace convcheck {

namespace {

bool sameSite(const ProblemSite& site, const PropertyTally& tally) {
  return site.property == tally.property && site.from == tally.from && site.to == tally.to;
}

// "round-trip|lost|spec.x" -> "lost|spec.x": the same defect seen by several properties.
std::string problemKey(const Cause& cause) {
  const auto bar = cause.key.find('|');
  return bar == std::string::npos ? cause.key : cause.key.substr(bar + 1);
}

std::vector<Problem> fromTallies(const KindReport& kind) {
  std::vector<Problem> out;
  std::map<std::string, std::size_t> byKey;
  for (const auto& tally : kind.tallies) {
    if (tally.failed == 0) continue;
    for (const auto& finding : tally.findings) {
      const Cause cause = finding.cause ? *finding.cause
                                        : Cause{tally.property + "|" + finding.summary,
                                                Severity::DataLoss, finding.summary, ""};
      const std::string key = problemKey(cause);
      auto [it, added] = byKey.try_emplace(key, out.size());
      if (added) {
        Problem p;
        p.key = key;
        p.severity = cause.severity;
        p.title = cause.title;
        p.example = finding;
        p.warningOnly = true;
        out.push_back(std::move(p));
      }
      Problem& p = out[it->second];
      const int cases = finding.cause ? finding.cases : tally.failed;
      p.sites.push_back({tally.property, tally.from, tally.to, cases, tally.warningOnly});
      p.cases += cases;
      if (!tally.warningOnly) p.warningOnly = false;
      if (tally.warningOnly && p.warningReason.empty()) p.warningReason = tally.warningReason;
    }
  }
  for (auto& p : out)
    if (!p.warningOnly) p.warningReason.clear();
  std::stable_sort(out.begin(), out.end(), [](const Problem& a, const Problem& b) {
    if (a.warningOnly != b.warningOnly) return !a.warningOnly;
    if (a.severity != b.severity) return a.severity < b.severity;
    return a.cases > b.cases;
  });
  for (std::size_t i = 0; i < out.size(); ++i) out[i].id = fmt::format("P{}", i + 1);
  return out;
}

}  // namespace

std::vector<Problem> problemsOf(const KindReport& kind) {
  if (!kind.problems.empty()) return kind.problems;
  return fromTallies(kind);
}

std::string pairText(const ProblemSite& site) {
  return site.from.empty() ? "" : site.from + "->" + site.to;
}

std::string sitesText(const Problem& problem, std::size_t maxBytes) {
  // Properties in the order their sites come, each with its pairs.
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (const auto& site : problem.sites) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == site.property; });
    if (it == groups.end()) it = groups.insert(groups.end(), {site.property, {}});
    if (!site.from.empty()) it->second.push_back(pairText(site));
  }
  auto render = [&](bool countPairs) {
    std::string out;
    for (const auto& [property, pairs] : groups) {
      out += (out.empty() ? "" : "; ") + property;
      if (pairs.empty()) continue;
      if (countPairs && pairs.size() > 2) {
        out += fmt::format(" {} +{} pairs", pairs.front(), pairs.size() - 1);
        continue;
      }
      for (const auto& p : pairs) out += " " + p;
    }
    return out;
  };
  std::string text = render(false);
  if (text.size() > maxBytes) text = render(true);
  return shortenUtf8(text, maxBytes);
}

std::vector<const Problem*> problemsAt(const std::vector<Problem>& problems,
                                       const PropertyTally& tally) {
  std::vector<const Problem*> out;
  for (const auto& p : problems)
    if (std::any_of(p.sites.begin(), p.sites.end(),
                    [&](const ProblemSite& s) { return sameSite(s, tally); }))
      out.push_back(&p);
  return out;
}

bool isFirstSite(const Problem& problem, const PropertyTally& tally, const KindReport& kind) {
  for (const auto& t : kind.tallies)
    for (const auto& s : problem.sites)
      if (sameSite(s, t)) return &t == &tally;
  return false;
}

}  // namespace convcheck
