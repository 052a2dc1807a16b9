#include "reports/problem_list.h"

#include <algorithm>

#include <fmt/format.h>

#include "kube/go/utf8.h"

namespace convcheck {

namespace {

bool sameSite(const ProblemSite& site, const PropertyTally& tally) {
  return site.property == tally.property && site.from == tally.from && site.to == tally.to;
}

}  // namespace

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

std::string digestTitle(const Problem& problem, std::size_t maxBytes) {
  // kube-apiserver's words around the webhook's (kube/apiserver/apiserver_model.cpp): "conversion
  // webhook for <group/version, Kind=K> failed: <error>" or "... returned <what is wrong>".
  static const std::string lead = "kube-apiserver rejects the answer: conversion webhook for ";
  const std::string& title = problem.title;
  if (title.rfind(lead, 0) != 0) return shortenUtf8(title, maxBytes);
  const auto failed = title.find(" failed: ", lead.size());
  const auto returned = title.find(" returned ", lead.size());
  if (failed == std::string::npos && returned == std::string::npos)
    return shortenUtf8(title, maxBytes);
  const std::string shown = failed < returned
                                ? "conversion failed: " + title.substr(failed + 9)
                                : "the webhook returned " + title.substr(returned + 10);
  return shortenUtf8(shown, maxBytes);
}

}  // namespace convcheck
